-- An entry point taking a matrix and returning several arrays.
-- ==
-- entry: stats
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] }
-- output { [3.0, 7.0, 11.0] [9.0, 12.0] 21.0 }
entry stats (m: [][]f64) : ([]f64, []f64, f64) =
  let rows = map f64.sum m
  let cols = map f64.sum (transpose m)
  in (rows, cols, f64.sum rows)
