-- hist ignores out-of-bounds (negative or too large) indices.
-- ==
-- input { [-1i64, 0i64, 3i64, 2i64, 100i64, 2i64] [1, 2, 4, 8, 16, 32] } output { [2, 0, 40] }
def main [n] (is: [n]i64) (vs: [n]i32) = hist (+) 0 3 is vs
