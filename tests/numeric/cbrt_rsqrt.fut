-- cbrt (cube root, defined for negative numbers) and rsqrt (1/sqrt).
-- ==
-- input { 27.0 } output { 3.0 0.19245008972987526 3.0f32 }
-- input { -8.0 } output { -2.0 f64.nan -2.0f32 }
-- input { 4.0 } output { 1.5874010519681994 0.5 1.587401f32 }
def main (x: f64) = (f64.cbrt x, f64.rsqrt x, f32.cbrt (f32.f64 x))
