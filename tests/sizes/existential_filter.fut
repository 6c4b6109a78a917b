-- filter returns an array of existential size; its length is usable.
-- ==
-- input { [1, -2, 3, -4, 5] } output { [1, 3, 5] 3i64 }
def main (xs: []i32) =
  let ys = filter (> 0) xs
  in (ys, length ys)
