-- Composition: filter followed by map and reduce.
-- ==
-- input { [-3, 5, -1, 2, 0] } output { [25, 4] 29 }
def main (xs: []i32) =
  let ys = map (\x -> x * x) (filter (> 0) xs)
  in (ys, reduce (+) 0 ys)
