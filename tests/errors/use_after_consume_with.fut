-- Using an array after it was consumed by an in-place update.
-- ==
-- error: use-after-consume
def main (xs: *[]i32) =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
