-- The |> operator applies left to right, and works with existential sizes.
-- ==
-- input { [-1, 0, 1, 2, 3] } output { 3i64 12 }
def main (xs: []i32) =
  let n = xs |> filter (> 0) |> length
  let s = xs |> map (* 2) |> filter (> 0) |> reduce (+) 0
  in (n, s)
