-- Histograms with more buckets than the input has elements per thread:
-- the multicore backend updates them with atomic operations (fetch-add for
-- integer +, compare-and-swap loops for f64 + and i64.max). Reduced to
-- checksums; the f64 values are small integers, so every order of addition
-- gives the same sums. Expected values from Python.
-- ==
-- input { 100000i64 50000i64 } output { 4999900000i64 12216.0f64 24975000i64 147i64 }
-- input { 200000i64 199999i64 } output { 39999015842i64 -354449.0f64 99900000i64 884i64 }
-- input { 7i64 5i64 } output { 24i64 -12.0f64 620i64 62i64 }
def main (n: i64) (m: i64) : (i64, f64, i64, i64) =
  let is = map (\i -> (i * 7919) % m) (iota n)
  let a = hist (+) 0i32 m is (map (\i -> i32.i64 (i % 5)) (iota n))
  let b = hist (+) 0f64 m is (map (\i -> f64.i64 (i % 9) - 4) (iota n))
  let c = reduce_by_index (replicate m i64.lowest) i64.max i64.lowest is (map (\i -> (i * 31) % 1000) (iota n))
  in ( i64.sum (map2 (\k x -> k * i64.i32 x) (iota m) a)
     , f64.sum (map2 (\k x -> f64.i64 k * x) (iota m) b)
     , i64.sum (map (\x -> if x == i64.lowest then 0 else x) c)
     , c[3] )
