-- A negative float literal beyond the range of f64.
-- ==
-- error: literal-out-of-bounds.*out of bounds.*f64
def main (x: f64) = x + -2e308
