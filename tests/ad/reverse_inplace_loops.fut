-- Reverse mode through loops that update their arrays in place, where
-- the return sweep re-runs part of the forward code and must not read an
-- array after the re-run consumed it.

-- Bubble sort by swaps in nested loops, weighted by position: an inner
-- loop re-run in the outer loop's return sweep consumes the row of the
-- outer loop's tape it starts from (so it starts from a copy). Sorting
-- [3, -1, 2.5, 0.25, 4] puts xs[0] at 3, xs[1] at 0, xs[2] at 2, xs[3]
-- at 1 and xs[4] at 4; the adjoint of xs[j] is its place p times ȳ[p]:
-- with ȳ = [1, 2, 3, 4, 5], [3·4, 0·1, 2·3, 1·2, 4·5].
def weighted_sort [n] (xs: [n]f64) : [n]f64 =
  let ys = loop ys = copy xs for i < n do
             loop ys for j < n - 1 - i do
               if ys[j] > ys[j + 1]
               then let a = ys[j]
                    let b = ys[j + 1]
                    in ys with [j] = b with [j + 1] = a
               else ys
  in map2 (*) ys (map f64.i64 (iota n))

-- ==
-- entry: sort_vjp
-- input { [3.0, -1.0, 2.5, 0.25, 4.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [12.0, 0.0, 6.0, 2.0, 20.0] }
entry sort_vjp [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 = vjp weighted_sort xs ys

-- ==
-- entry: weighted_sort_entry
-- gradcheck input { [3.0, -1.0, 2.5, 0.25, 4.0] }
entry weighted_sort_entry [n] (xs: [n]f64) : [n]f64 = weighted_sort xs

-- Each row replaced by a function of itself and of the row before it (the
-- last row for the first), where the row before is chosen by an `if` that
-- returns a view of the array the update then consumes: the return sweep
-- takes that view again from the restored array. With rows replaced by
-- 2·row + previous, column by column: a0' = 2a0 + a2, a1' = 2a1 + a0' =
-- 2a1 + 2a0 + a2, a2' = 2a2 + a1' = 3a2 + 2a1 + 2a0, so the sum is
-- 6a0 + 4a1 + 5a2 in every column, whatever the values.
def chained_rows [n][m] (a: [n][m]f64) : [n][m]f64 =
  loop a = copy a for i < n do
    let prev = if i == 0 then a[n - 1] else a[i - 1]
    in a with [i] = map2 (\x y -> 2 * x + y) a[i] prev

-- ==
-- entry: rows_vjp
-- input { [[1.0, 5.0], [1.0, -2.0], [1.0, 0.5]] }
-- output { [[6.0, 6.0], [4.0, 4.0], [5.0, 5.0]] }
entry rows_vjp [n][m] (a: [n][m]f64) : [n][m]f64 =
  vjp (\a -> f64.sum (map f64.sum (chained_rows a))) a 1

-- A nonlinear version, checked against finite differences.
-- ==
-- entry: rows_nonlinear
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] }
entry rows_nonlinear [n][m] (a: [n][m]f64) : [n][m]f64 =
  loop a = copy a for i < n do
    let prev = if i == 0 then a[n - 1] else a[i - 1]
    in a with [i] = map2 (\x y -> x * f64.cos y + y) a[i] prev

-- An `if` inside a loop whose one branch runs a loop that updates the
-- outer loop's array in place: the branch consumes the array through the
-- inner loop's initial value, so the return sweep keeps a copy for the
-- branch's own return sweep. On [a, b]: the first iteration sets
-- z0 = 2a + b, then z1 = 2b + z0 = 2a + 3b; the second triples both,
-- [6a + 3b, 6a + 9b]; against ȳ = [1, 2] that is 18a + 21b.
def branch_loops [n] (xs: [n]f64) : [n]f64 =
  loop ys = copy xs for i < 2 do
    if i % 2 == 0
    then loop zs = ys for j < n do zs with [j] = 2 * zs[j] + zs[(j + 1) % n]
    else map (* 3) ys

-- ==
-- entry: branch_loops_vjp
-- input { [1.0, -4.0] [1.0, 2.0] }
-- output { [18.0, 21.0] }
entry branch_loops_vjp [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 = vjp branch_loops xs ys

-- ==
-- entry: branch_loops_nonlinear
-- gradcheck input { [1.0, 2.0, 0.5, 1.5] }
entry branch_loops_nonlinear [n] (xs: [n]f64) : [n]f64 =
  loop ys = copy xs for i < 3 do
    if i % 2 == 0
    then loop zs = ys for j < n do zs with [j] = zs[j] * zs[(j + 1) % n] * 0.5 + 0.1
    else map f64.cos ys
