-- Two sum types with different constructors: the message lists the unshared ones.
-- ==
-- error: type-mismatch.*Unshared constructors: #blue, #green
type rg = #red | #green
type rb = #red | #blue
def main (b: bool) =
  let x : rg = #red
  let y : rb = #red
  in if b then x else y
