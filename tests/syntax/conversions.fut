-- Conversions via numeric modules; float to integer truncates, integers wrap.
-- ==
-- input { 7 3.9 } output { 7f32 3 -3 -1i64 44u8 -56i8 1 }
def main (x: i32) (y: f64) =
  (f32.i32 x, i32.f64 y, i32.f64 (-y), i64.i32 (-1), u8.i32 300, i8.u8 200u8, i32.bool true)
