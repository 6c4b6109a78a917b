-- A slice of an observed parameter cannot be updated.
-- ==
-- error: not-consumable
def main (xs: []i32) =
  let s = xs[0:2]
  in s with [0] = 7
