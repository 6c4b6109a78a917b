-- Passing an array to a consuming function and using the result.
-- ==
-- input { [1, 2, 3] } output { [0, 2, 3] 5 }
def zero_first (xs: *[]i32) : *[]i32 = xs with [0] = 0
def main (xs: []i32) =
  let ys = zero_first (copy xs)
  in (ys, xs[1] + xs[2])
