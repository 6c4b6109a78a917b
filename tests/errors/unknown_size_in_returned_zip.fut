-- A definition returning `zip (iota m)` for an `m` computed inside it
-- returns a function of type `[m]a -> [m](i64, a)`: no caller can supply
-- an array of size `m`, even though the function's result also has that
-- size.
-- ==
-- error: unknown-param-def.*Cannot generalise type of "pairs"

def pairs (n: i64) =
  let (m, _) = (n + 1, true)
  in (iota m, zip (iota m))

def main (n: i64) =
  let (xs, _) = pairs n
  in xs
