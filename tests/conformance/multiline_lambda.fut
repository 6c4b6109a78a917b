-- Multi-argument lambdas, <| and |> mixed, and if-chains as let bodies.
-- ==
-- input { [1, 15, 30, 7] } output { [0, 1, 2, 0] }
-- input { [10] } output { [1] }
def classify (x: i32) : i32 =
  if x < 10 then 0
  else if x < 20 then 1
  else 2
def main (xs: []i32) = map (\x -> classify x) xs
