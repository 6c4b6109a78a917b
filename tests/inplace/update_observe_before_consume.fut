-- Reading an element before consuming the array is fine.
-- ==
-- input { [4, 5, 6] } output { [4, 5, 6] 4 }
def main (xs: *[]i32) =
  let first = xs[0]
  let ys = xs with [0] = first
  in (ys, first)
