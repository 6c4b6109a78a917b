-- The result of applying a function-valued parameter does not alias the
-- function, `x |> f` is as fresh as `f x`, and a definition without a
-- return type whose result shares nothing with its parameters returns a
-- unique value: all three results below may be updated in place.
-- ==
-- input { 3i64 } output { [5, 1, 1] [9, 1, 3] }

def prefix_sums 't (op: t -> t -> t) (ne: t) (xs: []t) = scan op ne xs |> map (\x -> x)

def totals (op: i32 -> i32 -> i32) (ne: i32) (xs: []i32) : *[]i32 = prefix_sums op ne xs

def main (n: i64) =
  let xs = replicate n 0 |> map (+ 1)
  let xs[0] = 5
  let ys = totals (+) 0 (map i32.i64 (iota n)) with [0] = 9
  in (xs, ys)
