-- zip pairs elements positionally.
-- ==
-- input { [1, 2, 3] [10, 20, 30] } output { [10, 40, 90] }
def main [n] (xs: [n]i32) (ys: [n]i32) = map (\(x, y) -> x * y) (zip xs ys)
