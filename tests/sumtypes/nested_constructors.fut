-- Nested sum types and nested constructor patterns.
-- ==
-- input { 0 } output { 1 }
-- input { 1 } output { 2 }
-- input { 2 } output { 3 }
type inner = #x | #y
type outer = #wrap inner | #plain
def classify (o: outer) : i32 =
  match o
  case #wrap #x -> 1
  case #wrap #y -> 2
  case #plain -> 3
def main (i: i32) =
  classify (if i == 0 then #wrap #x else if i == 1 then #wrap #y else #plain)
