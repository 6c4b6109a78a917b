-- A match on a sum type missing a constructor.
-- ==
-- error: unmatched-cases
type t = #a | #b | #c
def f (v: t) : i32 =
  match v
  case #a -> 1
  case #b -> 2
def main (x: i32) = f (if x > 0 then #a else #c)
