-- let [k] binds the existential size of a filter result.
-- ==
-- input { [5, 10, 15, 20] } output { 2i64 [10, 15] }
def main (xs: []i32) =
  let [k] (ys: [k]i32) = filter (\x -> x > 5 && x < 20) xs
  in (k, ys)
