-- In `a with [i] = v`, the value `v` is evaluated before `a`: the outer
-- update's value reads `xs` before the inner update consumes it.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] }
-- input { [7, 8] } output { [7, 8] }
def main (xs: *[]i32) =
  (xs with [1] = xs[0]) with [1] = xs[1]
