-- A two-element array literal does not have size 3.
-- ==
-- error: size-mismatch
def main (x: i32) = ([x, x] : [3]i32)
