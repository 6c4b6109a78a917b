-- A constant is computed when the program starts, whichever entry point
-- runs: a check that fails there fails every entry point, even one that
-- does not use the constant (as in Futhark, where it fails the creation of
-- the context).
-- ==
-- entry: uses
-- input { 1i64 } error: division by zero

-- ==
-- entry: unrelated
-- input { 1i32 } error: division by zero

-- 10 / (i - 3) divides by zero at i = 3.
def table = map (\i -> 10 / (i - 3)) (iota 5)

entry uses (i: i64) = table[i]

entry unrelated (x: i32) = x + 1
