-- Same-width conversions between signed and unsigned types reinterpret the bits.
-- ==
-- input { 200u8 -1i8 4294967295u32 -1 }
-- output { -56i8 255u8 -1 4294967295u32 18446744073709551615u64 -1i64 }
def main (a: u8) (b: i8) (c: u32) (d: i32) =
  (i8.u8 a, u8.i8 b, i32.u32 c, u32.i32 d, u64.i64 (i64.i32 d), i64.u64 (u64.i64 (-1)))
