-- num_bits of every numeric module (an i32).
-- ==
-- input { } output { 8 16 32 64 8 16 32 64 16 32 64 }
def main =
  (i8.num_bits, i16.num_bits, i32.num_bits, i64.num_bits,
   u8.num_bits, u16.num_bits, u32.num_bits, u64.num_bits,
   f16.num_bits, f32.num_bits, f64.num_bits)
