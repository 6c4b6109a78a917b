-- 128i8 does not fit in i8.
-- ==
-- error: literal-out-of-bounds
def main = 128i8
