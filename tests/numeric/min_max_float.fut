-- min and max on floats, including infinities.
-- ==
-- input { 1.5 -2.0 } output { -2.0 1.5 -2.0f32 1.5f32 }
-- input { -f64.inf 3.0 } output { -f64.inf 3.0 -f32.inf 3.0f32 }
def main (a: f64) (b: f64) =
  (f64.min a b, f64.max a b, f32.min (f32.f64 a) (f32.f64 b), f32.max (f32.f64 a) (f32.f64 b))
