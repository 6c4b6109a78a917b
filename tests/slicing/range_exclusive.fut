-- The range 0..<n has size n.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 2i64, 3i64] }
def main (n: i64) : [n]i64 = 0..<n
