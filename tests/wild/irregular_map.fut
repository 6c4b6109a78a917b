-- A map whose rows are filtered arrays: Futhark accepts it when every row
-- keeps the same number of elements, and fails at run time otherwise.
-- ==
-- input { [[1, -2, 3], [-4, 5, 6], [7, 8, -9]] } output { [[1, 3], [5, 6], [7, 8]] [4, 11, 15] }
-- input { [[1, -2, 3], [-4, -5, 6]] } error: .
-- input { empty([0][3]i32) } output { empty([0][0]i32) empty([0]i32) }
def main [n] [m] (xss: [n][m]i32) =
  let kept = map (\r -> filter (> 0) r) xss
  in (kept, map i32.sum kept)
