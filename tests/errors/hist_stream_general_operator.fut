-- An accumulator whose operator is not one primitive operator per value
-- (here, the larger of two pairs by their first component) is not
-- supported yet: a clear error where the accumulator is made.
-- ==
-- error: not-supported-yet

def larger (a: f32, i: i64) (b: f32, j: i64) = if a < b then (b, j) else (a, i)

entry main (xs: []f32) =
  intrinsics.hist_stream (replicate 2 (0f32, -1i64)) larger (f32.lowest, -1)
    (\(acc: *intrinsics.acc ([](f32, i64))) (i: i64) -> intrinsics.acc_write acc (i % 2) (xs[i], i))
    (indices xs)
  |> unzip
