-- A lambda may be the last argument of an application without
-- parentheses (Futhark 0.25.24).
-- ==
-- entry: squares
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
entry squares (n: i64) = tabulate n \i -> i * i

-- The lambda's body extends as far right as it can, so it ends the
-- application.
-- ==
-- entry: sums
-- input { [1, 2] [10, 20] [100, 200] } output { [111, 222] }
entry sums (xs: []i32) (ys: []i32) (zs: []i32) =
  let add3 = map3 \x y z -> x + y + z
  in add3 xs ys zs

-- ==
-- entry: piped
-- input { [1, 2, 3] } output { 12 }
entry piped (xs: []i32) = xs |> map (* 2) |> reduce (+) 0 |> \s -> s
