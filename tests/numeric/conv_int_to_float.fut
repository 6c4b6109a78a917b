-- Integer to float conversions; f32 rounds to the nearest representable value
-- (checked exactly through to_bits: 16777217 rounds to 16777216 = 0x4b800000).
-- ==
-- input { 16777217i64 } output { 16777216.0f32 16777217.0 1266679808u32 }
-- input { -3i64 } output { -3.0f32 -3.0 3225419776u32 }
def main (x: i64) = (f32.i64 x, f64.i64 x, f32.to_bits (f32.i64 x))
