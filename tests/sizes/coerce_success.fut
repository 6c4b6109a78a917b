-- A size coercion :> succeeds when the sizes agree at run time.
-- (Both arrays are coerced: the anonymous parameter size of `xs` may not be
-- equated with `n`, which is bound in the body; Futhark rejects that too.)
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
-- input { [1, 2, 3] [4, 5] } error: .
def main (xs: []i32) (ys: []i32) =
  let n = length xs
  in map2 (+) (xs :> [n]i32) (ys :> [n]i32)
