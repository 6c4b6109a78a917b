-- Shifts on i8: << (left), >> (arithmetic right, sign-extending), >>> (logical right, zero-filling).
-- ==
-- input { -128i8 1i8 } output { 0i8 -64i8 64i8 }
-- input { 64i8 1i8 } output { -128i8 32i8 32i8 }
-- input { -1i8 4i8 } output { -16i8 -1i8 15i8 }
-- input { 5i8 2i8 } output { 20i8 1i8 1i8 }
def main (x: i8) (s: i8) = (x << s, x >> s, x >>> s)
