-- A let with no expression after the final binding.
-- ==
-- error: parse-error
def main (x: i32) =
  let y = x + 1
  in
