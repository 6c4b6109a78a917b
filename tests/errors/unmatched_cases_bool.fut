-- A match on bool missing the false case.
-- ==
-- error: unmatched-cases
def main (b: bool) =
  match b
  case true -> 1
