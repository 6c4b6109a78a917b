-- Ordered comparisons on f32 and f64.
-- ==
-- input { 1.5 2.5 } output { true true false false false true }
-- input { 2.5 2.5 } output { false true false true true false }
-- input { -0.0 0.0 } output { false true false true true false }
def main (a: f64) (b: f64) = (a < b, a <= b, a > b, a >= b, a == b, f32.f64 a != f32.f64 b)
