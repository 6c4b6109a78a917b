-- Reverse mode through scatters of rows, of several dimensions and of
-- several destinations (seed 004 §4.5). A value gets the adjoint of the
-- element it wrote; the destination keeps the adjoint of the elements
-- nobody wrote. Expected values by reasoning.

-- Rows: is = [2, 0, 7] writes rows 2 and 0 (7 is out of range).
-- ==
-- entry: rows
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [2i64, 0i64, 7i64] [[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]] }
-- output { [[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]] [[5.0, 6.0], [1.0, 2.0], [0.0, 0.0]] }
entry rows [n] (d: [3][2]f64) (is: [n]i64) (vs: [n][2]f64) : ([3][2]f64, [n][2]f64) =
  vjp (\(d, vs) -> scatter (copy d) is vs) (d, vs) [[1, 2], [3, 4], [5, 6]]

-- Two dimensions: (0,1) and (1,0) land, (2,2) does not.
-- ==
-- entry: two_d
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0]] [0i64, 1i64, 2i64] [1i64, 0i64, 2i64] [7.0, 8.0, 9.0] }
-- output { [[1.0, 0.0], [0.0, 4.0]] [2.0, 3.0, 0.0] }
entry two_d [n] (d: [2][2]f64) (is: [n]i64) (js: [n]i64) (vs: [n]f64) : ([2][2]f64, [n]f64) =
  vjp (\(d, vs) -> scatter_2d (copy d) (zip is js) vs) (d, vs) [[1, 2], [3, 4]]

-- Duplicate indices with equal values (scatter's contract): one of the
-- two writes of 5 gets the adjoint 2, not both.
-- ==
-- entry: duplicates
-- gradcheck input { [0.0, 0.0, 0.0] [1i64, 1i64, 2i64] [5.0, 5.0, 6.0] }
-- output { 2.0 3.0 [1.0, 0.0, 0.0] }
entry duplicates [n] (d: [3]f64) (is: [n]i64) (vs: [n]f64) : (f64, f64, [3]f64) =
  let (dd, dv) = vjp (\(d, vs) -> scatter (copy d) is vs) (d, vs) [1, 2, 3]
  in (dv[0] + dv[1], dv[2], dd)

-- An array of pairs: two destinations written by one scatter.
-- ==
-- entry: pairs
-- gradcheck input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] [0i64, 2i64] [10.0, 20.0] [30.0, 40.0] }
-- output { [0.0, 1.0, 0.0] [0.0, 2.0, 0.0] [1.0, 1.0] [2.0, 2.0] }
entry pairs [n] (a: [3]f64) (b: [3]f64) (is: [n]i64) (va: [n]f64) (vb: [n]f64) =
  let f (a, b, va, vb) = unzip (scatter (zip (copy a) (copy b)) is (zip va vb))
  let (da, db, dva, dvb) = vjp f (a, b, va, vb) (replicate 3 1, replicate 3 2)
  in (da, db, dva, dvb)
