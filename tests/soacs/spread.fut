-- spread builds a fresh array of size k filled with a default value, then scatters.
-- ==
-- input { [4i64, 0i64, 9i64] [1, 2, 3] } output { [2, -1, -1, -1, 1] }
def main [n] (is: [n]i64) (vs: [n]i32) = spread 5 (-1) is vs
