-- A range's length is computed with overflow checks. From i64's minimum to
-- its maximum in steps of 2^63-1, the distance 2^64-1 does not fit in an
-- i64; wrapped, it would give the range 0 elements instead of failing.
-- ==
-- input { 2i64 4i64 9i64 } output { 4i64 }
-- input { -9223372036854775808i64 -1i64 9223372036854775807i64 } error: overflow
def main (a: i64) (b: i64) (c: i64) : i64 = length (a..b..<c)
