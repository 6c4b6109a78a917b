-- The size of a flattened array is n * m, usable as a size in a type.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [1, 2, 3, 4, 5, 6] 6i64 }
def main [n][m] (xss: [n][m]i32) : ([n * m]i32, i64) =
  let ys = flatten xss
  in (ys, length ys)
