-- A compile error's location is printed as Futhark does: line, first
-- column, and the column one past the end of the offending expression.
-- ==
-- error: location_columns\.fut:6:23-33: Cannot apply "/"
def main (x: f32) =
  let y = (x + 1.0) / (2 + 3i32)
  in y
