-- scatter_2d writes at (row, column) pairs; out-of-bounds pairs are ignored.
-- ==
-- input { [[0, 0, 0], [0, 0, 0]] [0i64, 1i64, 1i64, 2i64] [2i64, 0i64, 3i64, 0i64] [5, 6, 7, 8] }
-- output { [[0, 0, 5], [6, 0, 0]] }
def main [n] (dest: *[][]i32) (rows: [n]i64) (cols: [n]i64) (vs: [n]i32) =
  scatter_2d dest (zip rows cols) vs
