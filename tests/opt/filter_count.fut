-- The count of a filter builds no array: only the number of elements
-- that pass is demanded, so the scan of flags becomes a sum
-- (crates/ogham-driver/tests/optimised_ir.rs checks the optimised IR).
-- A prefix sum read only at its last element is the total, with the
-- index's error where the array is empty.
-- ==
-- entry: count
-- input { [1, -2, 3, 0, 5] } output { 3i64 }
-- input { [-1, -2] } output { 0i64 }
-- input { empty([0]i32) } output { 0i64 }
entry count (xs: []i32) = length (filter (> 0) xs)

-- ==
-- entry: total
-- input { [1, 2, 3, 4] } output { 10 }
-- input { empty([0]i32) } error: Index \[-1\] out of bounds for array of shape \[0\]
entry total (xs: []i32) = let s = scan (+) 0 xs in s[length xs - 1]

-- A scan read elsewhere, or whole, stays a scan.
-- ==
-- entry: middle
-- input { [1, 2, 3, 4] } output { 3 [1, 3, 6, 10] }
entry middle (xs: []i32) = let s = scan (+) 0 xs in (s[1], s)
