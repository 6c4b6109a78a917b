-- scan over pairs: running sum and running count of positive elements.
-- ==
-- input { [1, -2, 3, 0, 5] } output { [1, -1, 2, 2, 7] [1, 1, 2, 2, 3] }
def main (xs: []i32) =
  unzip (scan (\(s1, c1) (s2, c2) -> (s1 + s2, c1 + c2)) (0, 0)
              (map (\x -> (x, if x > 0 then 1 else 0)) xs))
