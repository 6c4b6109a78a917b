-- Outer product of two vectors.
-- ==
-- input { [1, -1] [1, 2, 3] } output { [[1, 2, 3], [-1, -2, -3]] }
def main (xs: []i32) (ys: []i32) = map (\x -> map (\y -> x * y) ys) xs
