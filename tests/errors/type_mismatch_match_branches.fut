-- All cases of a match must have the same type.
-- ==
-- error: type-mismatch
def main (x: i32) =
  match x
  case 0 -> true
  case _ -> 1
