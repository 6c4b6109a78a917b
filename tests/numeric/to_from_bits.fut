-- to_bits and from_bits expose the IEEE 754 representation.
-- ==
-- input { } output { 1065353216u32 13835058055282163712u64 3.1415927f32 f64.inf 15360u16 0.0 -0.0f32 }
def main =
  (f32.to_bits 1.0, f64.to_bits (-2.0), f32.from_bits 0x40490fdb, f64.from_bits 0x7ff0000000000000,
   f16.to_bits 1.0, f64.from_bits 0, f32.from_bits 0x80000000)
