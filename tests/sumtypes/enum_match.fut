-- Constructors without payload (enumerations) and match.
-- ==
-- input { 0 } output { 10 }
-- input { 1 } output { 20 }
-- input { 7 } output { 30 }
type colour = #red | #green | #blue
def code (c: colour) : i32 =
  match c
  case #red -> 10
  case #green -> 20
  case #blue -> 30
def main (i: i32) =
  let c: colour = if i == 0 then #red else if i == 1 then #green else #blue
  in code c
