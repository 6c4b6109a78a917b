-- scatter writes values at the given indices of a destination array.
-- ==
-- input { [0, 0, 0, 0, 0] [1i64, 3i64] [10, 30] } output { [0, 10, 0, 30, 0] }
-- input { [1, 2, 3] empty([0]i64) empty([0]i32) } output { [1, 2, 3] }
def main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) = scatter dest is vs
