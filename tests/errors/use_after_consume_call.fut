-- Using an array after passing it to a consuming function.
-- ==
-- error: use-after-consume
def consume (xs: *[]i32) : *[]i32 = xs with [0] = 0
def main (xs: *[]i32) =
  let ys = consume xs
  in (ys, xs)
