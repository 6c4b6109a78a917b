-- Lambdas with several parameters, parameter ascriptions and a return type.
-- ==
-- input { [1, 2] [10, 20] } output { [13, 25] }
def main [n] (xs: [n]i32) (ys: [n]i32) =
  map2 (\x (y: i32) : i32 -> x + 2 * y) ys xs |> map (+1)
