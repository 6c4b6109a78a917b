-- The file ends where a `let` needs its `in`.
-- ==
-- error: parse-error.*Unexpected end of file; expected `in`
def main (x: i32) =
  let y = x + 1
  let z = y * 2
