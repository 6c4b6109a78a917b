-- zip3 and unzip3 round trip with a map in between.
-- ==
-- input { [1, 2] [true, false] [1.5, 2.5] }
-- output { [2, 3] [false, true] [3.0, 5.0] }
def main (a: []i32) (b: []bool) (c: []f64) =
  unzip3 (map (\(x, y, z) -> (x + 1, !y, z * 2)) (zip3 a b c))
