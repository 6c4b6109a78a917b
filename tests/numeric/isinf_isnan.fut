-- isinf and isnan classify special float values.
-- ==
-- input { f64.inf } output { true false true false }
-- input { -f64.inf } output { true false true false }
-- input { f64.nan } output { false true false true }
-- input { 1.0 } output { false false false false }
-- input { 0.0 } output { false false false false }
def main (x: f64) = (f64.isinf x, f64.isnan x, f32.isinf (f32.f64 x), f32.isnan (f32.f64 x))
