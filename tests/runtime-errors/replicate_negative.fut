-- replicate with a negative size is a run-time error.
-- ==
-- input { 2i64 } output { [true, true] }
-- input { -3i64 } error: .
def main (n: i64) = replicate n true
