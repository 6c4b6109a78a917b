-- f32 math functions and constants.
-- ==
-- input { 2.0f32 } output { 1.4142135f32 7.389056f32 0.6931472f32 4.0f32 3.1415927f32 true }
def main (x: f32) =
  (f32.sqrt x, f32.exp x, f32.log x, x ** 2, f32.pi, f32.isinf (x / 0))
