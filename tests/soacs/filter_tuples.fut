-- filter over an array of pairs, then unzip.
-- ==
-- input { [1, 2, 3, 4] [1.5, -2.0, 0.5, -1.0] } output { [2, 4] [-2.0, -1.0] }
def main [n] (ks: [n]i32) (vs: [n]f64) =
  unzip (filter (\(_, v) -> v < 0) (zip ks vs))
