-- Adding values of two different integer types.
-- ==
-- error: type-mismatch
def main (a: i32) (b: i64) = a + b
