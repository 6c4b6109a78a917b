-- The C backend leaves out bounds checks it can prove cannot fail (an
-- index of a loop over the array's own size, clamped neighbours); every
-- entry here indexes just outside what such a proof allows, so its check
-- must stay and fail. `mod_own_size` and the last entry are in bounds.
-- ==
-- entry: next
-- input { [1, 2, 3] } error: Index \[3\] out of bounds
-- entry: other_size
-- input { [1, 2, 3] [1, 2] } error: Index \[2\] out of bounds
-- entry: unclamped_up
-- input { [1, 2, 3] } error: Index \[-1\] out of bounds
-- entry: loop_past_end
-- input { [1, 2, 3] } error: Index \[3\] out of bounds
-- entry: first_of_empty
-- input { empty([0]i32) } error: Index \[0\] out of bounds
-- entry: mod_other_size
-- input { [1, 2, 3] [1, 2, 3, 4, 5] } error: Index \[4\] out of bounds
-- entry: rem_not_mod
-- input { [1, 2, 3] } error: Index \[-1\] out of bounds
-- entry: mod_own_size
-- input { [1, 2, 3] 5i64 } output { [1, 2, 3, 1, 2] }
-- input { empty([0]i32) 0i64 } output { empty([0]i32) }
-- input { empty([0]i32) 2i64 } error: division by zero
-- entry: clamped
-- input { [1, 2, 3] } output { [4, 6, 8] }
-- input { empty([0]i32) } output { empty([0]i32) }

entry next [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[i + 1]) (iota n)

entry other_size [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 = map (\i -> xs[i] + ys[i]) (iota n)

entry unclamped_up [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[i64.min (n - 1) (i - 1)]) (iota n)

entry loop_past_end [n] (xs: [n]i32) : i32 = loop acc = 0 for i < n do acc + xs[i64.max 0 (i + 1)]

entry first_of_empty [n] (xs: [n]i32) : i32 = xs[0]

-- `a % m` is in [0, m) for an array size m (`% 0` fails first), but not
-- below another array's size n; `%%` (rem) takes the sign of `a`.
entry mod_other_size [n][m] (xs: [n]i32) (_: [m]i32) : [n]i32 = map (\i -> xs[(i * 7) % m]) (iota n)

entry rem_not_mod [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[(i - 1) %% n]) (iota n)

entry mod_own_size [n] (xs: [n]i32) (m: i64) : [m]i32 = map (\i -> xs[(i * 4) % n]) (iota m)

entry clamped [n] (xs: [n]i32) : [n]i32 =
  map (\i -> xs[i64.max 0 (i - 1)] + xs[i] + xs[i64.min (n - 1) (i + 1)] - xs[i]) (iota n)
    |> map2 (+) xs
