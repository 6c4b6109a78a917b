-- copy produces a fresh array that can be updated in place without affecting the original.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [100, 2, 3] }
def main (xs: []i32) =
  let ys = copy xs
  let ys[0] = 100
  in (xs, ys)
