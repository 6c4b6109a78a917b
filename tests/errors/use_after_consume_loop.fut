-- An array consumed in a loop body cannot be used after the loop.
-- ==
-- error: use-after-consume
def main (xs: *[]i32) =
  let ys = loop acc = xs for i < 2 do acc with [i] = 0
  in (ys, xs[0])
