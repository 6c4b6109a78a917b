-- A size parameter of an entry point that is never the whole size of an
-- input array: a caller passing a 5-element array cannot say what `n` is.
-- ==
-- error: nonconstructive-entry.*\[n\].*only used non-constructively

entry main [n] (xs: [n * 2 + 1]i32) : i64 = n + length xs
