-- An array as loop state, rebuilt each iteration.
-- ==
-- input { [1, 2, 3] 3 } output { [8, 16, 24] }
def main (xs: []i32) (n: i32) =
  loop ys = xs for _i < n do map (* 2) ys
