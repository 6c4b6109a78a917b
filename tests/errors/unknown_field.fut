-- Projection of a field that the record does not have.
-- ==
-- error: unknown-field
def main (a: i32) =
  let r = {x = a, y = a}
  in r.z
