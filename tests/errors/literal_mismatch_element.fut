-- Float literals as the values scattered into an array of i32: expected
-- `i32` (the destination's elements), got a floating-point type.
-- ==
-- error: type-mismatch.*expected `i32`, but got a floating-point type
entry main (xs: *[]i32) = scatter xs [0] [1.0]
