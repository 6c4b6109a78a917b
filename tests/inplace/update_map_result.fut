-- The result of map is fresh and may be updated directly.
-- ==
-- input { [1, 2, 3] } output { [2, 4, -1] }
def main (xs: []i32) =
  let ys = map (* 2) xs
  in ys with [2] = -1
