-- Slices with computed bounds and strides.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8] 2i64 }
-- output { [3, 4, 5, 6] [1, 3, 5, 7] [8, 7, 6, 5, 4, 3, 2, 1] [3, 4, 5, 6, 7, 8] }
def main (xs: []i32) (k: i64) =
  let n = length xs
  in (xs[k:n-k], xs[::2], xs[::-1], xs[k:])
