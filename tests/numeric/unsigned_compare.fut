-- Comparisons on unsigned types treat the high bit as magnitude, not sign.
-- ==
-- input { 4294967295u32 1u32 200u8 100u8 } output { true false true true false }
def main (a: u32) (b: u32) (c: u8) (d: u8) = (a > b, a < b, c >= d, c != d, c <= d)
