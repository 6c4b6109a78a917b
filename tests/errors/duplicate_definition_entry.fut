-- Two entry points with the same name.
-- ==
-- error: duplicate-definition.*"run"
entry run (a: i32) = a + 1
entry run (a: i32) = a - 1
