-- Applying a function to more arguments than it takes.
-- ==
-- error: not-a-function|arity-mismatch
def inc (x: i32) : i32 = x + 1
def main (x: i32) = inc x x
