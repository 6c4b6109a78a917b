-- Passing arrays of different lengths to an entry point whose parameters share a size fails.
-- ==
-- input { [1, 2, 3] [10, 20] } error: .
def main [n] (xs: [n]i32) (ys: [n]i32) = map2 (-) xs ys
