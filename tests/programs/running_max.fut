-- Running maximum and the position where each running maximum was attained.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6, 5, 3] }
-- output { [3, 3, 4, 4, 5, 9, 9, 9, 9, 9] [0i64, 0i64, 2i64, 2i64, 4i64, 5i64, 5i64, 5i64, 5i64, 5i64] }
def main [n] (xs: [n]i32) =
  unzip (scan (\(a, i) (b, j) -> if b > a then (b, j) else (a, i))
              (i32.lowest, -1) (zip xs (iota n)))
