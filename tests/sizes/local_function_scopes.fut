-- Local functions with their own type parameters, and with parameters
-- sized by an outer size, stay valid.
-- ==
-- input { [5, 6] } output { 5 true [10, 12] }

def main [n] (xs: [n]i32) =
  let first 't (a: t) (_: t) = a
  let h (ys: [n]i32) = map2 (+) xs ys
  in (first xs[0] 7, first true false, h xs)
