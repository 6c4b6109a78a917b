-- fma rounds only once: fma 0.1 10 (-1) is 2^-54 exactly (5.551115123125783e-17),
-- while 0.1 * 10 - 1 rounds to 0. Checked through to_bits.
-- ==
-- input { 0.1 10.0 -1.0 } output { 4363988038922010624u64 0u64 }
def main (a: f64) (b: f64) (c: f64) = (f64.to_bits (f64.fma a b c), f64.to_bits (a * b + c))
