-- reduce_by_index_2d with pairs of indices into a 2-d destination; out-of-bounds pairs are ignored.
-- ==
-- input { [0i64, 1i64, 0i64, 1i64, 2i64, 0i64] [0i64, 2i64, 0i64, 0i64, 0i64, -1i64] [1, 2, 3, 4, 5, 6] }
-- output { [[4, 0, 0], [4, 0, 2]] }
def main [n] (rows: [n]i64) (cols: [n]i64) (vs: [n]i32) =
  reduce_by_index_2d (replicate 2 (replicate 3 0)) (+) 0 (zip rows cols) vs
