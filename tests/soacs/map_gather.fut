-- map that indexes another array (a gather); an out-of-bounds index is an error.
-- ==
-- input { [10, 20, 30] [2i64, 0i64, 1i64, 2i64] } output { [30, 10, 20, 30] }
-- input { [10, 20, 30] [3i64] } error: out of bounds
-- input { [10, 20, 30] [-1i64] } error: out of bounds
def main (xs: []i32) (is: []i64) = map (\i -> xs[i]) is
