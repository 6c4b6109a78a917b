-- A tuple pattern binding one name twice.
-- ==
-- error: duplicate-binding
def main (a: i32) =
  let (y, y) = (a, a)
  in y
