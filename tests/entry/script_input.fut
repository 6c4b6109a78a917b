-- A `script input` that calls another entry point: the results of
-- `make 3i64 2i32` ([2, 2, 2]) are the argument of `total`, 6.
-- ==
-- entry: total
-- script input { make 3i64 2i32 }
-- output { 6i32 }
-- script input { make 0i64 5i32 }
-- output { 0i32 }
-- script input { [1, 2, 3, 4] }
-- output { 10i32 }

entry make (n: i64) (x: i32) : []i32 = replicate n x
entry total (xs: []i32) : i32 = i32.sum xs
