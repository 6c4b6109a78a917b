-- Sums of rows into k buckets through flattened indices, the k-means form:
-- bucket c*d + j for column j of a row assigned to c. The middle end runs
-- it as a histogram over whole rows when no c*d overflows and as the flat
-- histogram otherwise; both must give what the flat program says.
-- Rows assigned outside [0, k) are ignored as a whole. With overflow, the
-- elements of one row can land in several rows of the result, or only
-- some of them in the result: with d = 3, c = 6148914691236517206 gives
-- c*3 = 2^64 + 2, which wraps to 2, so the row's columns go to buckets
-- 2, 3 and 4; with d = 4, c = 2^62 + 1 gives c*4 = 2^64 + 4, which wraps
-- to 4, row 1. With d = 0 there is nothing to add.
-- ==
-- entry: sums
-- input { 2i64 [0i64, 1i64, 0i64, 5i64, -1i64] [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]] }
-- output { [[6, 8], [3, 4]] }
-- input { 2i64 [0i64, 6148914691236517206i64] [[1, 2, 3], [10, 20, 30]] }
-- output { [[1, 2, 13], [20, 30, 0]] }
-- input { 2i64 [4611686018427387905i64] [[1, 2, 3, 4]] }
-- output { [[0, 0, 0, 0], [1, 2, 3, 4]] }
-- input { 3i64 [7i64, -1i64] empty([2][0]i32) }
-- output { empty([3][0]i32) }
-- input { 2i64 empty([0]i64) empty([0][3]i32) }
-- output { [[0, 0, 0], [0, 0, 0]] }
entry sums [n][d] (k: i64) (cs: [n]i64) (xs: [n][d]i32) : [k][d]i32 =
  let buckets = flatten (map (\c -> map (\j -> c * d + j) (iota d)) cs)
  in reduce_by_index (replicate (k * d) 0) (+) 0 buckets (flatten xs) |> unflatten

-- Any scalar operator works row by row; here the maximum, in f64.
-- ==
-- entry: maxima
-- input { 2i64 [1i64, 0i64, 1i64, 2i64] [[1.5, -2.0], [0.5, 4.0], [3.0, -7.0], [100.0, 100.0]] }
-- output { [[0.5, 4.0], [3.0, -2.0]] }
entry maxima [n][d] (k: i64) (cs: [n]i64) (xs: [n][d]f64) : [k][d]f64 =
  let buckets = flatten (map (\c -> map (\j -> c * d + j) (iota d)) cs)
  in reduce_by_index (replicate (k * d) (-f64.inf)) f64.max (-f64.inf) buckets (flatten xs) |> unflatten
