-- map over an array of tuples built with zip, destructured in the lambda.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [4, 10, 18] }
def main [n] (xs: [n]i32) (ys: [n]i32) = map (\(a, b) -> a * b) (zip xs ys)
