-- A sequential loop inside a map.
-- ==
-- input { [1, 2, 3] } output { [1, 4, 27] }
def main (xs: []i32) =
  map (\x -> loop p = 1 for _i < x do p * x) xs
