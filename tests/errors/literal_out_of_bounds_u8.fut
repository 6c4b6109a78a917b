-- 300 does not fit in u8.
-- ==
-- error: literal-out-of-bounds
def main : u8 = 300
