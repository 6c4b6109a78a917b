-- Arrays of different (unrelated) sizes cannot be passed to map2.
-- ==
-- error: size-mismatch
def main [n][m] (xs: [n]i32) (ys: [m]i32) = map2 (*) xs ys
