-- Updating a field that the record does not have.
-- ==
-- error: unknown-field
def main (a: i32) =
  let r = {x = a}
  let r2 = r with w = 1
  in r2.x
