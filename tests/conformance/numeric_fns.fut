-- Numeric module functions.
-- ==
-- input { -3.5f32 7i64 -2i64 } output { 3.5f32 -2i64 7i64 -4.0f32 3.0f32 true }
def main (x: f32) (a: i64) (b: i64) =
  (f32.abs x, i64.min a b, i64.max a b, f32.floor x, f32.ceil (f32.abs x) - 1, f32.isnan (f32.sqrt (-1)))
