-- reduce whose operator works on arrays: column sums of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } output { [12, 15, 18] }
-- input { empty([0][2]i32) } output { [0, 0] }
def main [n][m] (xss: [n][m]i32) : [m]i32 =
  reduce (map2 (+)) (replicate m 0) xss
