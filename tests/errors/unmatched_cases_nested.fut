-- A nested constructor pattern leaves a case uncovered.
-- ==
-- error: unmatched-cases
type inner = #x | #y
type outer = #wrap inner | #plain
def f (o: outer) : i32 =
  match o
  case #wrap #x -> 1
  case #plain -> 3
def main (b: bool) = f (if b then #plain else #wrap #y)
