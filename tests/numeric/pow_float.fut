-- Float exponentiation with **.
-- ==
-- input { 2.0 0.5 } output { 1.4142135623730951 1.4142135f32 }
-- input { 10.0 -2.0 } output { 0.01 0.01f32 }
-- input { 0.0 0.0 } output { 1.0 1.0f32 }
-- input { -8.0 0.5 } output { f64.nan f32.nan }
def main (x: f64) (y: f64) = (x ** y, f32.f64 x ** f32.f64 y)
