-- An invalid range's error shows the values it was given, as Futhark's does
-- (unsigned values read as unsigned).
-- ==
-- entry: inclusive
-- input { 1i64 3i64 } output { [1i64, 2i64, 3i64] }
-- input { 5i64 1i64 } error: Range 5\.\.\.1 is invalid\.
-- input { -2i64 -7i64 } error: Range -2\.\.\.-7 is invalid\.

-- ==
-- entry: strided
-- input { 1i32 3i32 9i32 } output { [1i32, 3i32, 5i32, 7i32, 9i32] }
-- input { 1i32 1i32 9i32 } error: Range 1\.\.1\.\.\.9 is invalid\.
-- input { 1i32 0i32 9i32 } error: Range 1\.\.0\.\.\.9 is invalid\.

-- ==
-- entry: down
-- input { 7i64 4i64 } output { [7i64, 6i64, 5i64] }
-- input { 4i64 7i64 } error: Range 4\.\.>7 is invalid\.

-- ==
-- entry: up_unsigned
-- input { 100u8 103u8 } output { [100u8, 101u8, 102u8] }
-- input { 200u8 100u8 } error: Range 200\.\.<100 is invalid\.

-- ==
-- entry: zero_step
-- input { 3i64 } error: Range 3\.\.3\.\.<10 is invalid\.

entry inclusive (a: i64) (b: i64) = a...b
entry strided (a: i32) (s: i32) (b: i32) = a..s...b
entry down (a: i64) (b: i64) = a..>b
entry up_unsigned (a: u8) (b: u8) = a..<b
entry zero_step (a: i64) = a..a..<10
