-- The same overloaded operators at several integer types.
-- ==
-- input { 200u8 100i16 -3i64 } output { 44u8 200i16 9i64 }
def main (a: u8) (b: i16) (c: i64) = (a + 100, b * 2, c * c)
