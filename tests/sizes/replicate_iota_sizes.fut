-- replicate and iota produce arrays of the requested sizes, and they zip together.
-- ==
-- input { 3i64 } output { [2i64, 3i64, 4i64] }
def main (n: i64) = map2 (+) (iota n) (replicate n 2)
