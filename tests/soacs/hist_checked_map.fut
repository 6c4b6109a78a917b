-- A parallel hist into few buckets whose map function reads an array at
-- positions computed from the data (a checked index: no kernel), so each
-- chunk fills its partial histograms statement by statement; the same
-- index out of bounds fails with its location. Bucket (y*y) mod k gets
-- y + 1 for y = (i * 7919) mod m, i < n. Expected values from Python.
-- ==
-- input { 100000i64 1000i64 7i64 } output { [7121400i64, 14242800i64, 14342900i64, 0i64, 14342900i64, 0i64, 0i64] }
-- input { 3i64 1000i64 2i64 } output { [840i64, 920i64] }
-- input { 0i64 5i64 3i64 } output { [0i64, 0i64, 0i64] }
-- input { 100000i64 1001i64 7i64 } error: Index \[1000\] out of bounds

def main (n: i64) (m: i64) (k: i64) : [k]i64 =
  let xs = map (\j -> j * j) (iota 1000)
  let ys = map (\i -> (i * 7919) % m) (iota n)
  in hist (+) 0 k (map (\y -> xs[y] % k) ys) (map (\y -> y + 1) ys)
