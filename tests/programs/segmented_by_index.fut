-- Per-group sums and maxima with reduce_by_index, keyed by a group id per element.
-- ==
-- input { 3i64 [0i64, 2i64, 0i64, 1i64, 2i64, 2i64] [5, 1, -3, 4, 10, 2] }
-- output { [2, 4, 13] [5, 4, 10] }
def main [n] (k: i64) (keys: [n]i64) (vs: [n]i32) =
  (reduce_by_index (replicate k 0) (+) 0 keys vs,
   reduce_by_index (replicate k i32.lowest) i32.max i32.lowest keys vs)
