-- Two size parameters for a matrix; transpose swaps them.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { 2i64 3i64 [[1, 4], [2, 5], [3, 6]] }
def dims [n][m] (_: [n][m]i32) : (i64, i64) = (n, m)
def tr [n][m] (a: [n][m]i32) : [m][n]i32 = transpose a
def main (a: [][]i32) = let (r, c) = dims a in (r, c, tr a)
