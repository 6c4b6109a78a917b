-- Fibonacci numbers with a for loop on a pair of i64 accumulators, and the whole
-- sequence via map.
-- ==
-- input { 10 } output { 55i64 [0i64, 1i64, 1i64, 2i64, 3i64, 5i64, 8i64, 13i64, 21i64, 34i64] }
-- input { 90 } output { 2880067194370816120i64 [0i64, 1i64, 1i64, 2i64, 3i64, 5i64, 8i64, 13i64, 21i64, 34i64] }
def fib (n: i32) : i64 =
  let (a, _) = loop (a, b) = (0i64, 1i64) for _i < n do (b, a + b)
  in a

def main (n: i32) = (fib n, map (\i -> fib (i32.i64 i)) (iota 10))
