-- The prelude conversions r32/t32 (i32 <-> f32) and r64/t64 (i32 <-> f64); t32/t64 truncate.
-- ==
-- input { 7 2.9f32 -2.9 } output { 7.0f32 2 7.0 -2 }
def main (x: i32) (y: f32) (z: f64) = (r32 x, t32 y, r64 x, t64 z)
