-- let [n] binds the size of an array returned by a function.
-- ==
-- input { [1, 2, 3, 4] } output { 3i64 [4, 3, 2] }
def main (xs: []i32) =
  let [n] (ys: [n]i32) = filter (> 1) (reverse xs)
  in (n, ys)
