-- A function that calls itself on every path compiles (the C compiler's
-- infinite-recursion warning is about the program, and every backend
-- builds with warnings as errors); it runs forever only when called,
-- which the branch here does not do for these inputs.
-- ==
-- input { 1 } output { 1 }
-- input { 5 } output { 5 }

def forever (x: i32) : i32 = forever x

entry main (x: i32) : i32 = if x > 5 then forever x else x
