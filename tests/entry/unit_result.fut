-- An entry point whose result is the unit value has no outputs.
-- ==
-- entry: nothing
-- input { 1 } output { }
entry nothing (_: i32) = ()

-- An assertion certifies values, and the unit value is none: as in
-- Futhark, asserting it checks nothing. Asserting a value that is
-- returned checks.
-- ==
-- entry: checked
-- input { 1 } output { }
-- input { -1 } output { }
entry checked (x: i32) : () = assert (x > 0) ()

-- ==
-- entry: checked_value
-- input { 1 } output { 1 }
-- input { -1 } error: Assertion is false
entry checked_value (x: i32) = assert (x > 0) x
