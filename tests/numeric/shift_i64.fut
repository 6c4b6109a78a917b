-- Shifts on i64: << (left), >> (arithmetic right, sign-extending), >>> (logical right, zero-filling).
-- ==
-- input { 1i64 62i64 } output { 4611686018427387904i64 0i64 0i64 }
-- input { -1i64 63i64 } output { -9223372036854775808i64 -1i64 1i64 }
-- input { -1024i64 3i64 } output { -8192i64 -128i64 2305843009213693824i64 }
-- input { 1i64 63i64 } output { -9223372036854775808i64 0i64 0i64 }
def main (x: i64) (s: i64) = (x << s, x >> s, x >>> s)
