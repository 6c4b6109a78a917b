-- The largest u64 converted to f64 is 2^64 (rounded).
-- ==
-- input { 18446744073709551615u64 } output { 18446744073709551616.0 }
-- input { 1u64 } output { 1.0 }
def main (x: u64) = f64.u64 x
