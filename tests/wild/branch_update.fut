-- An in-place update in one branch of an if, the other branch returning the
-- array unchanged: the result owns the array (a common idiom), so the
-- loop may consume it; also the partner error case in if_consume_error.fut.
-- ==
-- input { 5i64 } output { [0i64, 1, 1, 2, 3] 4i64 [1.0f64, 0.5f64] }
def fib (n: i64) : [n]i64 =
  let arr = replicate n 0
  let arr = if n > 1 then arr with [1] = 1 else arr
  in loop arr for i in 2..<n do arr with [i] = arr[i-1] + arr[i-2]
def main (n: i64) =
  let xs = fib n
  let cnt = length (filter (\x -> x % 2 == 1) xs) + 1
  let (a, b) = (1.0, 2.0)
  in (xs, cnt, [a, a / b])
