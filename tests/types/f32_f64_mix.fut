-- Explicit conversions between f32 and f64.
-- ==
-- input { 1.5f32 2.25 } output { 3.75 3.75f32 }
def main (a: f32) (b: f64) = (f64.f32 a + b, a + f32.f64 b)
