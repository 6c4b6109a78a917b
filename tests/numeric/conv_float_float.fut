-- Conversions between f32 and f64: f64.f32 0.1f32 exposes the f32 rounding error.
-- ==
-- input { 0.1f32 0.1 } output { 0.10000000149011612 1036831949u32 4591870180066957722u64 }
def main (a: f32) (b: f64) = (f64.f32 a, f32.to_bits (f32.f64 b), f64.to_bits b)
