-- Unsigned and small integer types converted to floats.
-- ==
-- input { 4294967295u32 255u8 -128i8 65535u16 } output { 4294967295.0 255.0f32 -128.0 65535.0f32 }
def main (a: u32) (b: u8) (c: i8) (d: u16) = (f64.u32 a, f32.u8 b, f64.i8 c, f32.u16 d)
