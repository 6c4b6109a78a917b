-- 128 does not fit in i8, the type inferred for this unsuffixed literal
-- (with a suffix, `128i8`, it would wrap to -128 as in Futhark).
-- ==
-- error: literal-out-of-bounds
def main : i8 = 128
