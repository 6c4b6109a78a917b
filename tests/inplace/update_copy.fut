-- copy makes an observed array consumable; the original is unchanged.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [1, 0, 3] }
def main (xs: []i32) =
  let ys = copy xs
  let ys[1] = 0
  in (xs, ys)
