-- assert, copy and manifest-free in-place update of a copy.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [9, 2, 3] }
-- input { empty([0]i32) } error: .*
def main (xs: []i32) =
  let ys = copy (assert (length xs > 0) xs)
  let ys[0] = 9
  in (xs, ys)
