-- hist counting occurrences of each bin index.
-- ==
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 1i64, 0i64] } output { [2, 3, 0, 1] }
-- input { 3i64 empty([0]i64) } output { [0, 0, 0] }
def main [n] (k: i64) (is: [n]i64) = hist (+) 0 k is (replicate n 1)
