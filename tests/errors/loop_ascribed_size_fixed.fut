-- A size written in a loop parameter's type does not vary: the body must
-- give an array of exactly that size, and the error names both sizes.
-- ==
-- error: Loop body does not have expected type.*"n" and "3" do not match

def main (n: i64) : [n]bool =
  loop (arr: [n]bool) = replicate n true
  for _i < 10 do
    replicate 3 true
