-- The loop body must return the type of the loop parameter.
-- ==
-- error: type-mismatch
def main (n: i32) = loop acc = 0i32 for i < n do acc > 1
