-- A lambda with two parameters of the same name.
-- ==
-- error: duplicate-binding
def main (xs: []i32) = map2 (\a a -> a) xs xs
