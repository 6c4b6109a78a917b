-- Numeric conversions.
-- ==
-- input { 3.7f64 -2 } output { 3i32 -2.0f32 3i64 254u8 4.0f64 1i32 }
def main (x: f64) (k: i32) =
  (i32.f64 x, f32.i32 k, i64.f64 x, u8.i32 k, f64.round x, i32.bool true)
