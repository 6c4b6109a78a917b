-- zip5 and unzip5.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 10] }
-- output { [9, 10] [7, 8] [5, 6] [3, 4] [1, 2] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32) =
  unzip5 (map (\(v, w, x, y, z) -> (z, y, x, w, v)) (zip5 a b c d e))
