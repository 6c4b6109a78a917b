-- Widening: signed sources are sign-extended into signed types,
-- unsigned sources are zero-extended.
-- ==
-- input { -5i8 250u8 65535u16 4294967295u32 -2147483648 }
-- output { -5i64 250i64 65535 4294967295u64 -2147483648i64 }
def main (a: i8) (b: u8) (c: u16) (d: u32) (e: i32) =
  (i64.i8 a, i64.u8 b, i32.u16 c, u64.u32 d, i64.i32 e)
