-- A conditional whose branches have different sizes has an existential
-- size; the message says which sizes the branches have.
-- ==
-- error: size-mismatch.*branches have sizes \[n\] and \[m\]
def main (b: bool) (n: i64) (m: i64) : [3]i64 =
  if b then iota n else iota m
