-- Slice updates and let-with sugar.
-- ==
-- input { [0, 0, 0, 0, 0, 0] } output { [0, 1, 2, 3, 0, 9] }
def main (xs: *[]i32) =
  let xs[1:4] = [1, 2, 3]
  let xs[5] = 9
  in xs
