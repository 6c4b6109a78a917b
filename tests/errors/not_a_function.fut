-- Applying a value that is not a function.
-- ==
-- error: not-a-function
def main (x: i32) = x 2
