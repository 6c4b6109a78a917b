-- A match on an integer with only literal cases is not exhaustive.
-- ==
-- error: unmatched-cases
def main (x: i32) =
  match x
  case 0 -> 1
  case 1 -> 2
