-- Float to unsigned integer conversion truncates (positive values in range only).
-- ==
-- input { 200.9 3000000000.5 1e19 } output { 200u8 3000000000u32 10000000000000000000u64 }
-- input { 0.25 65535.0 7.0 } output { 0u8 65535u32 7u64 }
def main (a: f64) (b: f64) (c: f64) = (u8.f64 a, u32.f64 b, u64.f64 c)
