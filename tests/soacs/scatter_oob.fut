-- scatter ignores out-of-bounds indices, negative or too large.
-- ==
-- input { [1, 2, 3] [-1i64, 3i64, 1i64, 1000i64] [9, 9, 7, 9] } output { [1, 7, 3] }
def main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) = scatter dest is vs
