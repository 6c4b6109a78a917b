-- Decimal and exponent float literals; unsuffixed ones default to f64.
-- ==
-- input { } output { 1000.0 0.0015 2.5f32 16f32 133700.0 }
def main = (1e3, 1.5e-3, 2.5f32, 16f32, 1337e2f64)
