-- Float → unsigned conversion wraps like the signed one: -1.0 is the
-- largest value (Futhark's (uint32_t)(int32_t)x), NaN and infinities give 0.
-- 1.5e19 modulo 2^32 is 3470524416.
-- ==
-- input { [3e9f64, -1f64, -3.5f64, 4294967301f64, 1.5e19f64, f64.nan, f64.inf, -f64.inf] }
-- output { [3000000000u32, 4294967295u32, 4294967293u32, 5u32, 3470524416u32, 0u32, 0u32, 0u32]
--          [3000000000u64, 18446744073709551615u64, 18446744073709551613u64, 4294967301u64,
--           15000000000000000000u64, 0u64, 0u64, 0u64] }
def main (xs: []f64) : ([]u32, []u64) = (map u32.f64 xs, map u64.f64 xs)
