-- Consuming the same array twice.
-- ==
-- error: use-after-consume
def main (xs: *[]i32) =
  let a = xs with [0] = 1
  let b = xs with [1] = 2
  in (a, b)
