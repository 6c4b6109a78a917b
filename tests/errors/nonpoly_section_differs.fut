-- Sizes written with different operators are different sizes.
-- ==
-- error: size-mismatch
def bad [n] (xs: [n]i64) : [reduce (+) 0 xs]i64 =
  iota (reduce (*) 1 xs)

def main (xs: []i64) = length (bad xs)
