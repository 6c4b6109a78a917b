-- zip3 and unzip3, permuting the components in between.
-- ==
-- input { [1, 2] [3, 4] [5, 6] } output { [5, 6] [1, 2] [3, 4] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) =
  unzip3 (map (\(x, y, z) -> (z, x, y)) (zip3 a b c))
