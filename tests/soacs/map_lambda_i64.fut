-- map with a lambda on i64 values.
-- ==
-- input { [0i64, 1i64, 2i64, 3i64, -4i64] } output { [-1i64, 0i64, 3i64, 8i64, 15i64] }
-- input { empty([0]i64) } output { empty([0]i64) }
def main (xs: []i64) : []i64 = map (\x -> x * x - 1) xs
