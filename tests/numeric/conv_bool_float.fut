-- bool from floats and unsigned types; u8.bool.
-- ==
-- input { 0.0 2.5 0u8 255u8 } output { false true false true 1u8 0u64 }
def main (a: f64) (b: f64) (c: u8) (d: u8) =
  (bool.f64 a, bool.f64 b, bool.u8 c, bool.u8 d, u8.bool true, u64.bool false)
