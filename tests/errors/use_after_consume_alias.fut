-- Using an alias (a slice) of an array after the array was consumed.
-- ==
-- error: use-after-consume
def main (xs: *[]i32) =
  let s = xs[1:]
  let ys = xs with [0] = 5
  in (ys, s)
