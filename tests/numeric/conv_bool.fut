-- Conversions between bool and numbers: zero is false, anything else is true.
-- ==
-- input { 0 5 -3 } output { false true true 1 0 1.0 0.0f32 }
def main (a: i32) (b: i32) (c: i32) =
  (bool.i32 a, bool.i32 b, bool.i32 c, i32.bool true, i32.bool false,
   f64.bool true, f32.bool false)
