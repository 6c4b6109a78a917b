-- A reserved word used as a variable name.
-- ==
-- error: parse-error
def main (x: i32) =
  let loop = x
  in loop
