-- map with a lambda that captures free variables.
-- ==
-- input { 10 [1, 2, 3] } output { [11, 12, 13] }
-- input { -1 [0] } output { [-1] }
def main (k: i32) (xs: []i32) =
  let f x = x + k
  in map f xs
