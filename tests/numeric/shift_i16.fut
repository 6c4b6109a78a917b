-- Shifts on i16: << (left), >> (arithmetic right, sign-extending), >>> (logical right, zero-filling).
-- ==
-- input { -32768i16 15i16 } output { 0i16 -1i16 1i16 }
-- input { 1i16 15i16 } output { -32768i16 0i16 0i16 }
-- input { -2i16 1i16 } output { -4i16 -1i16 32767i16 }
def main (x: i16) (s: i16) = (x << s, x >> s, x >>> s)
