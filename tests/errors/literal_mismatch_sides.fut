-- A float literal where an array is expected: the expected type is the
-- array, and what was given is a floating-point type (the two sides were
-- swapped when the constrained literal was the actual argument).
-- ==
-- error: type-mismatch.*expected `\[2\]f64`, but got a floating-point type
entry main (x: [2]f64) = jvp (\y -> y) x 1.0
