-- hist and reduce_by_index of rows of an input array into row buckets,
-- `map2 op` element by element (k-means' centroid sums), which the C
-- backends run as a kernel looping over each row's elements: sums and
-- maxima, indices out of range on both sides (ignored), rows given as
-- they are and as the columns of a transposed array (non-unit strides),
-- and enough rows for per-chunk partial histograms on multicore. Expected
-- values computed independently (Python).
-- ==
-- entry: rows columns
-- script input { gen 9i64 4i64 3i64 }
-- output { [[-7.0f64, -4.0f64, -1.0f64], [-5.0f64, -2.0f64, 1.0f64], [5.0f64, 8.0f64, -8.0f64], [7.0f64, -9.0f64, -6.0f64]] [[-7.0f64, -4.0f64, -1.0f64], [-5.0f64, -2.0f64, 1.0f64], [5.0f64, 8.0f64, -8.0f64], [7.0f64, -9.0f64, -6.0f64]] }
-- script input { gen 2000i64 5i64 9i64 }
-- output { [[18.0f64, 8.0f64, -21.0f64, -12.0f64, -3.0f64, 6.0f64, 15.0f64, 24.0f64, -24.0f64], [12.0f64, 21.0f64, -8.0f64, -18.0f64, -9.0f64, 0.0f64, 9.0f64, 18.0f64, 8.0f64], [3.0f64, 12.0f64, 21.0f64, -8.0f64, -18.0f64, -9.0f64, 0.0f64, 9.0f64, 18.0f64], [-3.0f64, 6.0f64, 15.0f64, 24.0f64, -24.0f64, -15.0f64, -6.0f64, 3.0f64, 12.0f64], [-9.0f64, 0.0f64, 9.0f64, 18.0f64, 8.0f64, -21.0f64, -12.0f64, -3.0f64, 6.0f64]] [[9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64], [9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64], [9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64], [9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64], [9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64, 9.0f64]] }

entry gen (n: i64) (k: i64) (d: i64) : (i64, [n]i64, [n][d]f64, [d][n]f64) =
  let idx = map (\i -> (i * 5) % (k + 3) - 1) (iota n)
  let xs = tabulate_2d n d (\i j -> f64.i64 ((i * 7 + j * 3) % 19 - 9))
  in (k, idx, xs, transpose xs)

def both [n][d] (k: i64) (idx: [n]i64) (xs: [n][d]f64) : ([k][d]f64, [k][d]f64) =
  (hist (map2 (+)) (replicate d 0) k idx xs,
   reduce_by_index (replicate k (replicate d (-f64.inf))) (map2 f64.max) (replicate d (-f64.inf)) idx xs)

-- The rows as they are in memory.
entry rows [n][d] (k: i64) (idx: [n]i64) (xs: [n][d]f64) (_: [d][n]f64) = both k idx xs

-- The rows as columns of the transposed array: stride n between elements.
entry columns [n][d] (k: i64) (idx: [n]i64) (_: [n][d]f64) (xt: [d][n]f64) = both k idx (transpose xt)
