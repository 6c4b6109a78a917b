-- Even with arithmetic on sizes, n+1 and n+2 are different.
-- ==
-- error: size-mismatch
def main [n] (xs: [n]i32) =
  map2 (+) (xs ++ [1]) (xs ++ [1, 2])
