-- get_bit/set_bit on floats operate on the IEEE bit representation (bit 31/63 is the sign).
-- Setting bit 62 of 1.0 (0x3ff0000000000000) gives 0x7ff0000000000000, which is infinity.
-- ==
-- input { -1.0f32 1.0 } output { 1 0 -1.0 -2.0f32 f64.inf }
def main (x: f32) (y: f64) =
  (f32.get_bit 31 x, f64.get_bit 63 y, f64.set_bit 63 y 1,
   f32.set_bit 31 2.0f32 1, f64.set_bit 62 y 1)
