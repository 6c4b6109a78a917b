-- Row and element updates of a matrix in a loop; i32 loop counter.
-- ==
-- input { 3 } output { [[0, 0, 0], [1, 1, 1], [2, 2, 5]] }
def main (n: i32) =
  let m = replicate (i64.i32 n) (replicate (i64.i32 n) 0)
  let m = loop m for i < n do m with [i64.i32 i] = replicate (i64.i32 n) i
  let m[2, 2] = 5
  in m
