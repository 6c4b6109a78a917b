-- A match case on a constructor the scrutinee type lacks.
-- ==
-- error: unknown-constructor|type-mismatch
type t = #a i32 | #b
def f (v: t) : i32 =
  match v
  case #a x -> x
  case #z -> 0
  case #b -> 1
def main (x: i32) = f (#a x)
