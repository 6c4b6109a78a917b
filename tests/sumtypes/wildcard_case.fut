-- A wildcard case covers the remaining constructors.
-- ==
-- input { 1 } output { 1 }
-- input { 2 } output { 0 }
-- input { 3 } output { 0 }
type t = #a | #b | #c
def main (i: i32) =
  let v: t = if i == 1 then #a else if i == 2 then #b else #c
  in match v
     case #a -> 1
     case _ -> 0
