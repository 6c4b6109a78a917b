-- An i32 literal above i32.highest.
-- ==
-- error: literal-out-of-bounds
def main (x: i32) = x + 3000000000
