-- Loops whose carried array is updated inside one branch of an `if`, or
-- in both at different places: reverse mode logs each conditional update
-- (its indices, the element it overwrote and whether the iteration made
-- it) and undoes it in the reverse loop where it was made.
--
-- Only the else branch updates: y[0] = 0 and y[i] = x[i]·y[i-1] + x[i],
-- with x = [_, 2, 3]: y = [0, 2, 9], so Σy = 11 and
-- ∂/∂x1 = (y0 + 1) + x2·(y0 + 1) = 4, ∂/∂x2 = y1 + 1 = 3.
-- ==
-- entry: one_branch
-- input { [5.0, 2.0, 3.0] } output { [0.0, 4.0, 3.0] }
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry one_branch [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = replicate n 0 for i < n do
                         if i == 0 then ys else ys with [i] = xs[i] * ys[i - 1] + xs[i]
              in f64.sum ys)
      xs 1

-- Each branch updates a different element, and the condition depends on
-- the values; an iteration past the end updates nothing (a bound guard).
-- ==
-- entry: both_branches
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
-- gradcheck input { [-0.2, 0.8, 0.1] }
entry both_branches [n] (xs: [n]f64) : f64 =
  let ys =
    loop ys = map (* 2) xs for i < n + 2 do
      if i >= n then ys
      else if ys[i] > 0 then ys with [i] = f64.sin ys[i] * ys[(i + 1) % n]
      else ys with [(i + 1) % n] = ys[i] * ys[(i + 1) % n] - 1
  in f64.sum (map (\y -> y * y) ys)

-- A row of a matrix updated in one branch, the matrix carried.
-- ==
-- entry: rows
-- gradcheck input { [[0.5, 0.3], [-0.7, 1.1], [0.9, -0.4]] }
entry rows [n][m] (xss: [n][m]f64) : f64 =
  let yss =
    loop yss = copy xss for i < n do
      if i % 2 == 1 then yss
      else yss with [i] = map2 (\a b -> a * b + 1) yss[i] yss[(i + 1) % n]
  in f64.sum (map f64.sum (map (map (\y -> y * y)) yss))

-- The `if` also returns a scalar the rest of the body reads: it runs
-- again in the reverse loop, on a copy.
-- ==
-- entry: with_scalar
-- gradcheck input { [0.5, 0.3, -0.7, 1.1, 0.9] }
entry with_scalar [n] (xs: [n]f64) : f64 =
  let (ys, s) =
    loop (ys, s) = (copy xs, 0) for i < n do
      let old = ys[i]
      let (ys, t) = if xs[i] > 0 then (ys with [i] = old * s + 1, old) else (ys, s * 0.5)
      in (ys, s + t * xs[i])
  in s + f64.sum ys

-- A view of the carried array (a slice, a row) taken before the `if` and
-- read by the branch that updates the array: the return sweep takes the
-- view again from the restored array (it read the view after the update
-- it re-executes: an internal error on `c`, and under `ogham test` before
-- that). With xs = [1, 2, -0.5, 0.3, 0.7], iterations 0, 1 and 3 set
-- ys[i] = ys[i]² + ys[i+1]², so ∂/∂x = [2, 4 + 4, -1 + 1, 0.6, 1.4 + 1].
-- ==
-- entry: slice_before
-- input { [1.0, 2.0, -0.5, 0.3, 0.7] } output { [2.0, 8.0, 0.0, 0.6, 2.4] }
-- input { [-1.0] } output { [1.0] }
entry slice_before [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i < n - 1 do
                         let s = ys[i:i + 2]
                         in if xs[i] > 0 then ys with [i] = f64.sum (map (\x -> x * x) s) else ys
              in f64.sum ys)
      xs 1

-- Rows whose first element is positive are squared: their gradient is
-- 2x, the others' 1.
-- ==
-- entry: row_before
-- input { [[1.0, -2.0, 0.5], [-0.3, 0.7, 0.9], [0.45, 0.12, 0.3]] }
-- output { [[2.0, -4.0, 1.0], [1.0, 1.0, 1.0], [0.9, 0.24, 0.6]] }
entry row_before [n][m] (xss: [n][m]f64) : [n][m]f64 =
  vjp (\xss -> let yss = loop yss = copy xss for i < n do
                           let r = yss[i]
                           in if r[0] > 0 then yss with [i] = map (\y -> y * y) r else yss
               in f64.sum (map f64.sum yss))
      xss 1

-- Two updates in one branch (a swap): each is logged in a slot of its
-- own, the other branch filling both with placeholders. Bubble sort, then
-- Σ (i+1)·sorted[i]: each element's derivative is its place in the
-- sorted order plus one (x = [0.5, -0.3, 1.7, 0.2, -1.1] sorts to
-- [-1.1, -0.3, 0.2, 0.5, 1.7]).
-- ==
-- entry: bubble_sort
-- input { [0.5, -0.3, 1.7, 0.2, -1.1] } output { [4.0, 2.0, 5.0, 3.0, 1.0] }
-- input { empty([0]f64) } output { empty([0]f64) }
entry bubble_sort [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for k < n * n do
                         let j = k % n
                         in if j + 1 < n && ys[j] > ys[j + 1]
                            then let a = ys[j]
                                 let b = ys[j + 1]
                                 in ys with [j] = b with [j + 1] = a
                            else ys
              in f64.sum (map2 (\y i -> y * f64.i64 (i + 1)) ys (iota n)))
      xs 1

-- Nested conditionals: `else if`, and a `match` of three cases, each
-- branch logged in slots of its own. Element i is set from x[i] once:
-- 1 above 1 (derivative 0), -1 + x/2 below -1 (0.5), x² between (2x).
-- ==
-- entry: else_if
-- input { [2.0, -3.0, 0.5, -0.25] } output { [0.0, 0.5, 1.0, -0.5] }
entry else_if [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i < n do
                         if ys[i] > 1 then ys with [i] = 1
                         else if ys[i] < -1 then ys with [i] = -1 + 0.5 * ys[i]
                         else ys with [i] = ys[i] * ys[i]
              in f64.sum ys)
      xs 1

-- With x = [1, 2, 3, 4, 5]: y = [3, 2, 3·2, 12, 5], so the derivatives
-- are [3, 1 + 3, 2, 3, 1].
-- ==
-- entry: by_case
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] } output { [3.0, 4.0, 2.0, 3.0, 1.0] }
entry by_case [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i < n do
                         match i % 3
                         case 0 -> ys with [i] = 3 * ys[i]
                         case 1 -> ys
                         case _ -> ys with [i] = ys[i] * ys[i - 1]
              in f64.sum ys)
      xs 1

-- The `if`'s condition reads the carried array: its adjoint from the
-- branches is built there, and the element read adds to it in place (no
-- copy of the adjoint array per reverse iteration).
--
-- By hand, x = [a, b, c] all taken: y1 = ab, y2 = abc, Σ = a + ab + abc,
-- gradient [1 + b + bc, a + ac, ab] = [1, 0, 6] at [2, 3, -1]. With a ≤ 0
-- the first update is skipped: Σ = a + b + bc, gradient [1, 1 + c, b] =
-- [1, 3, 3] at [-1, 3, 2].
-- ==
-- entry: condition_reads
-- input { [2.0, 3.0, -1.0] } output { [1.0, 0.0, 6.0] }
-- input { [-1.0, 3.0, 2.0] } output { [1.0, 3.0, 3.0] }
entry condition_reads [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> let ys = loop ys = copy xs for i in 1..<n do
                         if ys[i - 1] > 0 then ys with [i] = ys[i] * ys[i - 1] else ys
              in f64.sum ys)
      xs 1
