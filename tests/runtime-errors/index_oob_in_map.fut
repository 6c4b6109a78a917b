-- An out-of-bounds index inside a map is still reported.
-- ==
-- input { [10, 20, 30] [0i64, 2i64] } output { [10, 30] }
-- input { [10, 20, 30] [0i64, 5i64] } error: out of bounds
def main (xs: []i32) (is: []i64) = map (\i -> xs[i]) is
