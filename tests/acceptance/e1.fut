-- Arrays of different sizes cannot be zipped: a compile-time error.
-- ==
-- error: .*
def main [n][m] (xs: [n]i32) (ys: [m]i32) = map2 (+) xs ys
