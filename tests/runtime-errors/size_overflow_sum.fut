-- A size sum n+m from run-time values is checked for overflow, so a
-- coercion to [n+m] cannot pass by wrapping around to the real length.
-- ==
-- input { 1i64 2i64 [1, 2, 3] } output { 6 }
-- input { 9223372036854775807i64 4i64 [1, 2, 3] } error: overflow
def main (n: i64) (m: i64) (xs: []i32) : i32 =
  i32.sum (xs :> [n+m]i32)
