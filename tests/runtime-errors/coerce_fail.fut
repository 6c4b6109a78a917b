-- A size coercion :> fails at run time when the sizes differ.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
-- input { [1, 2, 3] [4, 5] } error: .
def main [n] (xs: [n]i32) (ys: []i32) = map2 (+) xs (ys :> [n]i32)
