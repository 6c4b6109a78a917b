-- Matching on a tuple of sum values.
-- ==
-- input { true true } output { 3 }
-- input { true false } output { 2 }
-- input { false true } output { 1 }
-- input { false false } output { 0 }
type b = #t | #f
def tob (x: bool) : b = if x then #t else #f
def main (x: bool) (y: bool) =
  match (tob x, tob y)
  case (#t, #t) -> 3
  case (#t, #f) -> 2
  case (#f, #t) -> 1
  case (#f, #f) -> 0
