-- A let pattern containing a literal can fail to match.
-- ==
-- error: refutable-pattern
def main (x: i32) =
  let (1, y) = (x, x)
  in y
