-- Brute-force inversion count: pairs i < j with xs[i] > xs[j], using a nested map and sum.
-- ==
-- input { [3, 1, 2] } output { 2i64 }
-- input { [5, 4, 3, 2, 1] } output { 10i64 }
-- input { [1, 2, 3] } output { 0i64 }
def main [n] (xs: [n]i32) : i64 =
  tabulate_2d n n (\i j -> if i < j && xs[i] > xs[j] then 1 else 0)
  |> map i64.sum |> i64.sum
