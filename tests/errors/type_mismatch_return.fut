-- The body does not match the declared return type.
-- ==
-- error: type-mismatch
def main (x: i32) : bool = x + 1
