-- Float literal forms: exponents, type suffixes, integer-looking literals with float suffixes,
-- and hexadecimal floats (0x1.8p1 = 1.5 * 2 = 3).
-- ==
-- input { } output { 1500.0 0.0015f32 16.0f32 133700.0 3.0 }
def main = (1.5e3, 1.5e-3f32, 16f32, 1337e2f64, 0x1.8p1)
