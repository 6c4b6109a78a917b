-- A size coercion :> succeeds when the sizes agree at run time.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
def main (xs: []i32) (ys: []i32) =
  let n = length xs
  in map2 (+) xs (ys :> [n]i32)
