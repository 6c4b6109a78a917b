-- A record literal with the same field twice.
-- ==
-- error: duplicate-field
def main (a: i32) =
  let r = {x = a, x = a}
  in r.x
