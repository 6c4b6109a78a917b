-- Indexing an array of units is checked against its size.
-- ==
-- input { 3i64 2i64 } output { true }
-- input { 3i64 3i64 } error: Index \[3\] out of bounds for array of shape \[3\]

entry main (n: i64) (i: i64) : bool =
  let us = replicate n ()
  in us[i] == ()
