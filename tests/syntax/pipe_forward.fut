-- The |> pipeline operator chains left to right.
-- ==
-- input { [1, 2, 3] } output { 9 }
def main (xs: []i32) = xs |> map (+1) |> i32.sum
