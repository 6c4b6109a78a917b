-- flatten has size n*m; unflatten takes its sizes from the annotation.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [1, 2, 3, 4, 5, 6] [[1, 2, 3], [4, 5, 6]] }
def main [n][m] (a: [n][m]i32) =
  let flat = flatten a
  let b: [n][m]i32 = unflatten flat
  in (flat, b)
