-- zip4 and unzip4.
-- ==
-- input { [1, 2] [true, false] [1.0, 2.0] [7u8, 8u8] }
-- output { [2, 3] [false, true] [0.5, 1.0] [14u8, 16u8] }
def main [n] (a: [n]i32) (b: [n]bool) (c: [n]f64) (d: [n]u8) =
  unzip4 (map (\(w, x, y, z) -> (w + 1, !x, y / 2, z * 2)) (zip4 a b c d))
