-- Nested match inside a lambda over an array of a sum type.
-- ==
-- input { [1, -2, 0, 5] } output { [1, 4, 0, 10] }
type shape = #pos i32 | #neg i32 | #zero
def classify (x: i32) : shape =
  if x > 0 then #pos x else if x < 0 then #neg x else #zero
def main (xs: []i32) =
  map (\x -> match classify x
             case #pos v -> if v > 3 then v * 2 else v
             case #neg v -> v * v
             case #zero -> 0) xs
