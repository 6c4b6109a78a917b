-- Repeated squaring-free matrix power with a loop: the Fibonacci matrix to the k-th power.
-- ==
-- input { 10 } output { [[89i64, 55i64], [55i64, 34i64]] }
-- input { 0 } output { [[1i64, 0i64], [0i64, 1i64]] }
-- input { 50 } output { [[20365011074i64, 12586269025i64], [12586269025i64, 7778742049i64]] }
def matmul [n] (a: [n][n]i64) (b: [n][n]i64) : [n][n]i64 =
  map (\r -> map (\c -> i64.sum (map2 (*) r c)) (transpose b)) a

def main (k: i32) =
  let f = [[1i64, 1], [1, 0]]
  in loop acc = [[1i64, 0], [0, 1]] for _i < k do matmul acc f
