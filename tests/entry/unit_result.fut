-- An entry point whose result is the unit value has no outputs.
-- ==
-- entry: nothing
-- input { 1 } output { }
entry nothing (_: i32) = ()

-- Its assertions still run.
-- ==
-- entry: checked
-- input { 1 } output { }
-- input { -1 } error: Assertion is false
entry checked (x: i32) : () = assert (x > 0) ()
