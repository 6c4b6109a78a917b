-- ogham extension: xs++ys has size n+m, ys++xs has size m+n; they can be zipped.
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [1, 2] [10, 20, 30] } output { [11, 22, 40, 21, 32] }
def main [n][m] (xs: [n]i32) (ys: [m]i32) =
  map2 (+) (xs ++ ys) (ys ++ xs)
