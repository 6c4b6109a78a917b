-- Float → integer conversion as Futhark's compiled code does it: NaN and
-- infinities give 0; a finite value is truncated toward zero into the
-- signed type of the target's width (300 → i8 keeps the low bits, 44;
-- -1 → u8 is 255; an unsigned target takes a value in its range as is); beyond the 32-bit range (64-bit for i64) the result is
-- that range's minimum, as x86 gives: 1e30 → i64 is -2^63, → i32 -2^31,
-- and its low 8 bits, 0, for i8 and u8.
-- ==
-- input { [1e30f64, -1e30f64, 300.7f64, -1.5f64, f64.nan, f64.inf, -f64.inf, -2.9f64] }
-- output { [-9223372036854775808i64, -9223372036854775808i64, 300i64, -1i64, 0i64, 0i64, 0i64, -2i64]
--          [0i8, 0i8, 44i8, -1i8, 0i8, 0i8, 0i8, -2i8]
--          [0u8, 0u8, 44u8, 255u8, 0u8, 0u8, 0u8, 254u8]
--          [-2147483648i32, -2147483648i32, 300i32, -1i32, 0i32, 0i32, 0i32, -2i32] }

def main (xs: []f64) : ([]i64, []i8, []u8, []i32) =
  (map i64.f64 xs, map i8.f64 xs, map u8.f64 xs, map (\x -> i32.f32 (f32.f64 x)) xs)
