-- Coercing an existential filter result to a known size.
-- ==
-- input { [1, 2, 3, 4] } output { [2, 4, 6, 8] }
def main [n] (xs: [n]i32) =
  let ys = filter (> 0) xs :> [n]i32
  in map2 (+) xs ys
