-- A constructor carrying an array payload (size-parameterised sum type).
-- ==
-- input { [1, 2, 3] true } output { 6 }
-- input { [1, 2, 3] false } output { 3 }
type content [n] = #many [n]i32 | #one i32
def total [n] (c: content [n]) : i32 =
  match c
  case #many xs -> i32.sum xs
  case #one x -> x
def main [n] (xs: [n]i32) (b: bool) =
  total (if b then #many xs else #one (xs[2]) : content [n])
