-- Conversions to and from f16: 0.1 is rounded to f16 (bits 11878), 2049 rounds to 2048
-- (ties to even), 65504 is the largest finite f16 and 65536 overflows to infinity.
-- ==
-- input { 0.1f32 2049 3.75f16 } output { 11878u16 26624u16 3 3.75 f16.inf 31743u16 }
def main (a: f32) (b: i32) (c: f16) =
  (f16.to_bits (f16.f32 a), f16.to_bits (f16.i32 b), i32.f16 c, f64.f16 c,
   f16.f64 65536.0, f16.to_bits (f16.f64 65504.0))
