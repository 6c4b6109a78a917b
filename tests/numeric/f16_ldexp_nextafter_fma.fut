-- f16 operations that must not be computed as f32 and rounded back
-- (all results checked exactly through to_bits).
--
-- ldexp's exponent is an i32: 7·2^-4 = 0.4375 (0x3700), 7·2^4 = 112
-- (0x5700), 2^20 overflows to inf (0x7c00), 2^-24 is the smallest
-- subnormal (0x0001), 2^-25 is half of it and rounds to even, 0.
-- ==
-- entry: ldexp16
-- input { [7f16, 7f16, 1f16, 1f16, 1f16] [-4, 4, 20, -24, -25] }
-- output { [14080u16, 22272u16, 31744u16, 1u16, 0u16] }

entry ldexp16 (xs: []f16) (ks: []i32) = map2 (\x k -> f16.to_bits (f16.ldexp x k)) xs ks

-- nextafter steps by one f16 ulp: 1 → 1+2^-10 (0x3c01), 1 → 1-2^-11
-- (0x3bff), 0 → -2^-24 (0x8001), -1 → -(1+2^-10) (0xbc01).
-- ==
-- entry: nextafter16
-- input { [1f16, 1f16, 0f16, -1f16] [2f16, 0f16, -1f16, -2f16] }
-- output { [15361u16, 15359u16, 32769u16, 48129u16] }

entry nextafter16 (xs: []f16) (ys: []f16) = map2 (\x y -> f16.to_bits (f16.nextafter x y)) xs ys

-- fma rounds once: (1+2^-10)·(1-2^-11) + 9·2^-24 = 1 + 2^-11 + 2^-24, just
-- above the midpoint of 1 and 1+2^-10, so 1+2^-10 (0x3c01). (Rounding
-- to f32 first gives exactly the midpoint, which rounds to even, 1.)
-- ==
-- entry: fma16
-- input { 1.0009765625f16 0.99951171875f16 5.36441802978515625e-7f16 }
-- output { 15361u16 }

entry fma16 (a: f16) (b: f16) (c: f16) = f16.to_bits (f16.fma a b c)

-- f64 to f16 rounds once: 1 + 2^-11 + 2^-40 is above the midpoint of 1
-- and 1+2^-10, so 1+2^-10 (0x3c01); through f32 it would be the midpoint.
-- ==
-- entry: from_f64
-- input { 1.0004882812509094947017729282379150390625f64 } output { 15361u16 }

entry from_f64 (x: f64) = f16.to_bits (f16.f64 x)

-- lerp is f16 arithmetic, every step rounded: 4096-3 = 4093 rounds to
-- 4092, ·0.5 = 2046, +3 = 2049 rounds to even, 2048 (0x6800).
-- ==
-- entry: lerp16
-- input { 3f16 4096f16 0.5f16 } output { 26624u16 }

entry lerp16 (a: f16) (b: f16) (t: f16) = f16.to_bits (f16.lerp a b t)
