-- An anonymous parameter size equated with a size bound in the body.
-- ==
-- error: size-mismatch.*"len".*scope-violation
def main (xs: []i64) =
  let len = 4 + 1
  in zip (iota len) xs
