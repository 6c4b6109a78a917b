-- Negated suffixed literals and the extreme values of small types.
-- (-127i8 - 1 avoids relying on whether -128i8 is one literal or a negation.)
-- ==
-- input { } output { -128i8 127i8 -32768i16 255u8 -5i64 }
def main : (i8, i8, i16, u8, i64) = (-127i8 - 1, 127i8, -32767i16 - 1, 255u8, -5i64)
