-- Two parameters with distinct size parameters cannot be used as the same size.
-- ==
-- error: size-mismatch
def f [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
def main [n][m] (xs: [n]i32) (ys: [m]i32) = f xs ys
