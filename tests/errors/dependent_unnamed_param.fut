-- `apply` passes `n` elements for the parameter `k`; a function that does
-- not name its first parameter (`\_ ys -> ...`) cannot promise that its
-- `ys` has that many.
-- ==
-- error: size-mismatch.*"k"

type^ counter = (k: i64) -> [k]i32 -> i64

def apply [n] (f: counter) (xs: [n]i32) : i64 = f n xs

def main (xs: []i32) = apply (\_ (ys: []i32) -> length ys) xs
