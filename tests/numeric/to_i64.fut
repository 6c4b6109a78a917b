-- to_i64 from various modules: sign-extension for signed, zero-extension for unsigned,
-- reinterpretation for u64, truncation for floats.
-- ==
-- input { -3i8 255u8 18446744073709551615u64 -2.7 1e10f32 }
-- output { -3i64 255i64 -1i64 -2i64 10000000000i64 }
def main (a: i8) (b: u8) (c: u64) (d: f64) (e: f32) =
  (i8.to_i64 a, u8.to_i64 b, u64.to_i64 c, f64.to_i64 d, f32.to_i64 e)
