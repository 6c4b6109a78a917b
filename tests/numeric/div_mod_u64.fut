-- Unsigned division and remainder on u64: all four operators agree.
-- ==
-- input { 18446744073709551615u64 10u64 } output { 1844674407370955161u64 5u64 1844674407370955161u64 5u64 }
-- input { 12345678901234567890u64 1000000007u64 } output { 12345678814u64 814816192u64 12345678814u64 814816192u64 }
def main (a: u64) (b: u64) = (a / b, a % b, a // b, a %% b)
