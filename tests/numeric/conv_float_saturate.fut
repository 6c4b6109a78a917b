-- Float → integer conversion truncates and saturates like Rust's `as`:
-- NaN gives 0, out-of-range values and infinities the nearest bound.
-- ==
-- input { [1e30f64, -1e30f64, 300.7f64, -1.5f64, f64.nan, f64.inf, -f64.inf, -2.9f64] }
-- output { [9223372036854775807i64, -9223372036854775808i64, 300i64, -1i64, 0i64, 9223372036854775807i64, -9223372036854775808i64, -2i64]
--          [127i8, -128i8, 127i8, -1i8, 0i8, 127i8, -128i8, -2i8]
--          [255u8, 0u8, 255u8, 0u8, 0u8, 255u8, 0u8, 0u8]
--          [2147483647i32, -2147483648i32, 300i32, -1i32, 0i32, 2147483647i32, -2147483648i32, -2i32] }

def main (xs: []f64) : ([]i64, []i8, []u8, []i32) =
  (map i64.f64 xs, map i8.f64 xs, map u8.f64 xs, map (\x -> i32.f32 (f32.f64 x)) xs)
