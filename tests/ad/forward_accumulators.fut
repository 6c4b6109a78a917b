-- Forward mode through the accumulator intrinsics: the tangents are
-- accumulated beside the values. Sums of squares by parity of the index:
-- at [1, 2, 3] the buckets are 1 + 9 and 4; in the direction [1, 0, 1]
-- their tangents are 2·1 + 2·3 = 8 and 0. (Reverse mode of accumulators
-- is not supported yet, so no gradcheck.)
-- ==
-- entry: parity_squares
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, 1.0] }
-- output { [10.0, 4.0] [8.0, 0.0] }
def by_parity [n] (xs: [n]f64) : [2]f64 =
  intrinsics.hist_stream (replicate 2 0) (+) 0
    (\(a: *intrinsics.acc ([2]f64)) (i: i64) -> intrinsics.acc_write a (i % 2) (xs[i] * xs[i]))
    (iota n)

entry parity_squares [n] (xs: [n]f64) (dx: [n]f64) = jvp2 by_parity xs dx
