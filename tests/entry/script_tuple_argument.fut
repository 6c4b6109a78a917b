-- A script input whose call returns several results passes them to an
-- entry point whose input is a tuple (an opaque value), as FutharkScript
-- does: the tuple is built from the results.
-- ==
-- entry: scaled_sum
-- script input { make 3i64 } output { 18i64 }
-- script input { make 0i64 } output { 0i64 }

entry make (n: i64) : (i64, []i64) = (n, iota (n + 1))

entry scaled_sum (k: i64, xs: []i64) : i64 = k * i64.sum xs
