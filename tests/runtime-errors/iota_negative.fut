-- iota with a negative size is a run-time error.
-- ==
-- input { 2i64 } output { [0i64, 1i64] }
-- input { -1i64 } error: .
def main (n: i64) = iota n
