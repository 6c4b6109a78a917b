-- The C backend leaves out bounds checks it can prove cannot fail (an
-- index of a loop over the array's own size, clamped neighbours); every
-- entry here indexes just outside what such a proof allows, so its check
-- must stay and fail. The last entry is in bounds.
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
-- entry: clamped
-- input { [1, 2, 3] } output { [4, 6, 8] }
-- input { empty([0]i32) } output { empty([0]i32) }

entry next [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[i + 1]) (iota n)

entry other_size [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 = map (\i -> xs[i] + ys[i]) (iota n)

entry unclamped_up [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[i64.min (n - 1) (i - 1)]) (iota n)

entry loop_past_end [n] (xs: [n]i32) : i32 = loop acc = 0 for i < n do acc + xs[i64.max 0 (i + 1)]

entry first_of_empty [n] (xs: [n]i32) : i32 = xs[0]

entry clamped [n] (xs: [n]i32) : [n]i32 =
  map (\i -> xs[i64.max 0 (i - 1)] + xs[i] + xs[i64.min (n - 1) (i + 1)] - xs[i]) (iota n)
    |> map2 (+) xs
