-- let [m] may name a size that is already known (here the size of a
-- concatenation), not only an existential one; m is the array's length.
-- ==
-- input { [1, 2] } output { 4i64 [2, 1, 2, 1] }
-- input { empty([0]i32) } output { 0i64 empty([0]i32) }
def main (xs: []i32) =
  let [m] (ys: [m]i32) = xs ++ xs
  in (m, map (\i -> ys[m - 1 - i]) (iota m))
