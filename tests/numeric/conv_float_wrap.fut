-- Float → integer conversion as Futhark does it: NaN and infinities give 0;
-- a finite value is truncated toward zero and wrapped modulo 2^bits
-- (1e30 is 1000000000000019884624838656 exactly, which is
-- 5076964154930102272 modulo 2^64 and 0 modulo 2^8 and 2^32).
-- ==
-- input { [1e30f64, -1e30f64, 300.7f64, -1.5f64, f64.nan, f64.inf, -f64.inf, -2.9f64] }
-- output { [5076964154930102272i64, -5076964154930102272i64, 300i64, -1i64, 0i64, 0i64, 0i64, -2i64]
--          [0i8, 0i8, 44i8, -1i8, 0i8, 0i8, 0i8, -2i8]
--          [0u8, 0u8, 44u8, 255u8, 0u8, 0u8, 0u8, 254u8]
--          [0i32, 0i32, 300i32, -1i32, 0i32, 0i32, 0i32, -2i32] }

def main (xs: []f64) : ([]i64, []i8, []u8, []i32) =
  (map i64.f64 xs, map i8.f64 xs, map u8.f64 xs, map (\x -> i32.f32 (f32.f64 x)) xs)
