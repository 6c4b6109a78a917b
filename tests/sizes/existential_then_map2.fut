-- Two arrays derived from the same filter result have the same size and can be zipped.
-- ==
-- input { [3, 0, 7, 0, 1] } output { [9, 49, 1] }
def main (xs: []i32) =
  let ys = filter (!= 0) xs
  let zs = map (\y -> y) ys
  in map2 (*) ys zs
