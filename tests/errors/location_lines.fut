-- A location spanning several lines is printed as line:col-line:col.
-- ==
-- error: location_lines\.fut:5:23-7:6: Cannot apply "/"
def main (x: f32) =
  let y = (x + 1.0) / (2 +
                       3i32
    )
  in y
