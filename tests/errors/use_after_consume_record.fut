-- A record field consumed by an update cannot be used via the record afterwards.
-- ==
-- error: use-after-consume
def main (xs: *[]i32) =
  let r = {a = xs, b = 1}
  let ys = r.a with [0] = 0
  in (ys, r.a)
