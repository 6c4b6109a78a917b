-- sqrt is correctly rounded (IEEE): compare bit patterns of sqrt 2 and check perfect squares.
-- ==
-- input { 2.0 } output { 1068827891u32 4609047870845172685u64 }
def main (x: f64) = (f32.to_bits (f32.sqrt (f32.f64 x)), f64.to_bits (f64.sqrt x))
