-- A let-binding ascribed with a size parameter from the function.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] }
def main [n] (xs: [n]i32) =
  let ys: [n]i32 = map (+1) xs
  in ys
