-- 2^53 + 1 is not representable as f64 and rounds to 2^53 (bits 0x4340000000000000).
-- ==
-- input { 9007199254740993i64 } output { 4845873199050653696u64 9007199254740992i64 }
def main (x: i64) = (f64.to_bits (f64.i64 x), i64.f64 (f64.i64 x))
