-- scatter, hist and reduce_by_index.
-- ==
-- input { [0i64, 2i64, 2i64, 5i64, 1i64] }
-- output { [1, 1, 2, 0, 0, 1] [0, 10, 1, 0, 0, 0] [1i64, 1i64, 2i64, 0i64, 0i64, 1i64] }
def main (is: []i64) =
  let h = hist (+) 0 6 is (map (const 1) is)
  let s = scatter (replicate 6 0) [1, 2, 7] [10, 1, 5]
  let r = reduce_by_index (replicate 6 0i64) (+) 0 is (map (const 1) is)
  in (h, s, r)
