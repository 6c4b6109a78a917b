-- The % operator on (non-negative) floats gives the remainder of division.
-- ==
-- input { 7.5 2.0 } output { 1.5 1.5f32 }
-- input { 9.0 3.0 } output { 0.0 0.0f32 }
-- input { 1.0 0.75 } output { 0.25 0.25f32 }
def main (a: f64) (b: f64) = (a % b, f32.f64 a % f32.f64 b)
