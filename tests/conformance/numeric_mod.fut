-- Functions from the numeric modules.
-- ==
-- input { -6 } output { 6 -1 30 29 3i64 36.0f32 -6i64 }
def main (x: i32) =
  (i32.abs x, i32.sgn x, i32.popc x, i32.clz 7, f32.to_i64 3.9f32, f32.i32 (x * x), i32.to_i64 x)
