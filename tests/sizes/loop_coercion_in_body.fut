-- A size coercion inside a loop body whose sizes vary: the body is checked
-- again with the generalised sizes, and the first check's coercion leaves
-- no size behind to be ambiguous.
-- ==
-- input { [1, 2, 3, 4] } output { 4 }

def shrink [k] (xs: [k + 1]i32) : [k]i32 = xs[1:] :> [k]i32

def main [n] (xs: [n]i32) : i32 =
  last (loop xs for i in reverse (iota (n - 1)) do shrink (xs :> [i + 1 + 1]i32))
