-- lerp v0 v1 t = v0 + (v1 - v0) * t; fma and mad compute a*b + c.
-- ==
-- input { 1.0 3.0 0.25 } output { 1.5 3.25 3.25 1.5f32 }
-- input { -2.0 2.0 1.0 } output { 2.0 -3.0 -3.0 2.0f32 }
-- input { 10.0 20.0 0.0 } output { 10.0 200.0 200.0 10.0f32 }
def main (a: f64) (b: f64) (t: f64) =
  (f64.lerp a b t, f64.fma a b t, f64.mad a b t, f32.lerp (f32.f64 a) (f32.f64 b) (f32.f64 t))
