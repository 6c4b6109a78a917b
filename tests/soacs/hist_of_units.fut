-- A histogram of values without data (`()`): every bin stays `()`, and the
-- result has the destination's size.
-- ==
-- input { 4i64 } output { 4i64 }
-- input { 0i64 } output { 0i64 }

entry main (n: i64) : i64 =
  let arr = reduce_by_index (replicate n ()) (\() () -> ()) () (replicate n 2) (replicate n ())
  in length arr
