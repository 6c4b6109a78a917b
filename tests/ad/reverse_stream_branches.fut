-- Reverse mode of accumulators the program makes itself whose function
-- updates them inside the branches of an `if`: each branch's updates
-- become indices and values the `if` returns, the branch with fewer
-- updates returning an out-of-range index for the rest, then one `hist`
-- or `scatter` per update. Expected values worked out by hand; every
-- primal is also checked by finite differences and the dot-product
-- identity (`gradcheck`).

-- Per element x_i: if x_i > 0, add x_i² at is_i and x_i at is_i + 1
-- (mod 3), else 3x_i at is_i; then x_i at 0 in both cases. At d = [1, 2,
-- 3], x = [1, -2, 3, 0.5], is = [0, 2, 2, 1]: y = d + [1 + 3, 1 + 0.25,
-- -6 + 9 + 0.5] + Σx·[1, 0, 0] = [7.5, 3.25, 6.5]. With ȳ = [1, 2, 3]:
-- d̄ = ȳ, x̄ = [2·1·1 + 2, 3·3, 2·3·3 + 1, 2·0.5·2 + 3] + 1 = [5, 10, 20, 6].
-- ==
-- entry: sums
-- gradcheck input { [1.0, 2.0, 3.0] [1.0, -2.0, 3.0, 0.5] [0i64, 2i64, 2i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [7.5, 3.25, 6.5] }

-- ==
-- entry: sums_vjp
-- input { [1.0, 2.0, 3.0] [1.0, -2.0, 3.0, 0.5] [0i64, 2i64, 2i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 3.0] [5.0, 10.0, 20.0, 6.0] }
def sums_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       let acc = if xs[i] > 0
                 then let acc = intrinsics.acc_write acc is[i] (xs[i] * xs[i])
                      in intrinsics.acc_write acc ((is[i] + 1) % m) xs[i]
                 else intrinsics.acc_write acc is[i] (3 * xs[i])
       in intrinsics.acc_write acc 0 xs[i])
    (iota n)
entry sums [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = sums_f d xs is
entry sums_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> sums_f d xs is) (d, xs) ys

-- Writes of x_i² at i/2 for even i only. At d = [1, 2, 3, 4], x = [1, 2,
-- 3, 4, 5]: y = [1, 9, 25, 4]; with ȳ = [1, 2, 3, 4], d̄ = [0, 0, 0, 4]
-- (the overwritten elements get nothing) and x̄ = [2·1·1, 0, 2·3·2, 0,
-- 2·5·3] = [2, 0, 12, 0, 30].
-- ==
-- entry: evens
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [1.0, 9.0, 25.0, 4.0] }

-- ==
-- entry: evens_vjp
-- input { [1.0, 2.0, 3.0, 4.0] [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.0, 0.0, 0.0, 4.0] [2.0, 0.0, 12.0, 0.0, 30.0] }
def evens_f [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       if i % 2 == 0 then intrinsics.acc_write acc (i / 2) (xs[i] * xs[i]) else acc)
    (iota n)
entry evens [n][m] (d: [m]f64) (xs: [n]f64) (_: [m]f64) = evens_f d xs
entry evens_vjp [n][m] (d: [m]f64) (xs: [n]f64) (ys: [m]f64) =
  vjp (\(d, xs) -> evens_f d xs) (d, xs) ys

-- Products: x_i multiplied in at is_i where x_i > 0, else 2 at 0. At d =
-- [2, 3], x = [1.5, -1, 4], is = [1, 1, 0]: y = [2·2·4, 3·1.5] = [16,
-- 4.5]; with ȳ = [1, 1]: d̄ = [2·4, 1.5] = [8, 1.5], x̄ = [3, 0, 2·2] =
-- [3, 0, 4] (x_1 takes the branch that does not read it).
-- ==
-- entry: products
-- gradcheck input { [2.0, 3.0] [1.5, -1.0, 4.0] [1i64, 1i64, 0i64] [1.0, 1.0] }
-- output { [16.0, 4.5] }

-- ==
-- entry: products_vjp
-- input { [2.0, 3.0] [1.5, -1.0, 4.0] [1i64, 1i64, 0i64] [1.0, 1.0] }
-- output { [8.0, 1.5] [3.0, 0.0, 4.0] }
def products_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (*) 1
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       if xs[i] > 0 then intrinsics.acc_write acc is[i] xs[i] else intrinsics.acc_write acc 0 2)
    (iota n)
entry products [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = products_f d xs is
entry products_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> products_f d xs is) (d, xs) ys

-- Loops: a `for` loop over the accumulator alone whose trip count is the
-- same for every element becomes a map over its iterations, and the
-- `hist` or `scatter` runs over every element's every iteration.

-- Per element x_i and j < 3: add (j + 1)·x_i² at (is_i + j) mod 3. At d =
-- [1, 2, 3], x = [1, -2, 0.5], is = [0, 2, 1]: y = d + [1 + 8 + 0.75, 2 +
-- 12 + 0.25, 3 + 4 + 0.5] = [10.75, 16.25, 10.5]. With ȳ = [1, 2, 3]:
-- d̄ = ȳ, x̄_i = 2x_i Σ_j (j + 1) ȳ[(is_i + j) mod 3]: x̄ = [2·(1 + 4 + 9),
-- -4·(3 + 2 + 6), 1·(2 + 6 + 3)] = [28, -44, 11].
-- ==
-- entry: spread
-- gradcheck input { [1.0, 2.0, 3.0] [1.0, -2.0, 0.5] [0i64, 2i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [10.75, 16.25, 10.5] }

-- ==
-- entry: spread_vjp
-- input { [1.0, 2.0, 3.0] [1.0, -2.0, 0.5] [0i64, 2i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 3.0] [28.0, -44.0, 11.0] }
def spread_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < 3 do intrinsics.acc_write acc ((is[i] + j) % m) (xs[i] * xs[i] * f64.i64 (j + 1)))
    (iota n)
entry spread [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = spread_f d xs is
entry spread_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> spread_f d xs is) (d, xs) ys

-- Writes of x_i^(j+1) at 2i + j for j < 2. At d = [1, ..., 7], x = [2,
-- -1, 0.5]: y = [2, 4, -1, 1, 0.5, 0.25, 7]; with ȳ = [1, ..., 7]: d̄ =
-- [0, 0, 0, 0, 0, 0, 7] and x̄_i = ȳ[2i] + 2x_i ȳ[2i+1] = [1 + 8, 3 - 8,
-- 5 + 6] = [9, -5, 11].
-- ==
-- entry: pairs
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] [2.0, -1.0, 0.5] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] }
-- output { [2.0, 4.0, -1.0, 1.0, 0.5, 0.25, 7.0] }

-- ==
-- entry: pairs_vjp
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] [2.0, -1.0, 0.5] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0] }
-- output { [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0] [9.0, -5.0, 11.0] }
def pairs_f [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < 2 do intrinsics.acc_write acc (2 * i + j) (xs[i] ** f64.i64 (j + 1)))
    (iota n)
entry pairs [n][m] (d: [m]f64) (xs: [n]f64) (_: [m]f64) = pairs_f d xs
entry pairs_vjp [n][m] (d: [m]f64) (xs: [n]f64) (ys: [m]f64) =
  vjp (\(d, xs) -> pairs_f d xs) (d, xs) ys

-- A branch in a loop: for j < 2, x_i² added at (is_i + j) mod 3 where x_i
-- > j. At d = [1, 2, 3], x = [1.5, 0.5, -1, 2.5], is = [0, 1, 2, 2]: y =
-- [1 + 2.25 + 6.25, 2 + 2.25 + 0.25, 3 + 6.25] = [9.5, 4.5, 9.25]; with
-- ȳ = [1, 2, 3]: d̄ = ȳ and x̄ = [3·(1 + 2), 1·2, 0, 5·(3 + 1)] = [9, 2,
-- 0, 20].
-- ==
-- entry: some
-- gradcheck input { [1.0, 2.0, 3.0] [1.5, 0.5, -1.0, 2.5] [0i64, 1i64, 2i64, 2i64] [1.0, 2.0, 3.0] }
-- output { [9.5, 4.5, 9.25] }

-- ==
-- entry: some_vjp
-- input { [1.0, 2.0, 3.0] [1.5, 0.5, -1.0, 2.5] [0i64, 1i64, 2i64, 2i64] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 3.0] [9.0, 2.0, 0.0, 20.0] }
def some_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < 2 do
         if xs[i] > f64.i64 j then intrinsics.acc_write acc ((is[i] + j) % m) (xs[i] * xs[i]) else acc)
    (iota n)
entry some [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = some_f d xs is
entry some_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> some_f d xs is) (d, xs) ys

-- A loop in one branch, a single update in the other: x_i added at is_i
-- and is_i + 1 (mod 3) where x_i > 0, else x_i² at is_i. At d = [1, 2, 3],
-- x = [2, -1, 0.5], is = [1, 0, 2]: y = [1 + 1 + 0.5, 2 + 2, 3 + 2 + 0.5]
-- = [2.5, 4, 5.5]; with ȳ = [1, 2, 3]: d̄ = ȳ, x̄ = [2 + 3, -2·1, 3 + 1]
-- = [5, -2, 4].
-- ==
-- entry: either
-- gradcheck input { [1.0, 2.0, 3.0] [2.0, -1.0, 0.5] [1i64, 0i64, 2i64] [1.0, 2.0, 3.0] }
-- output { [2.5, 4.0, 5.5] }

-- ==
-- entry: either_vjp
-- input { [1.0, 2.0, 3.0] [2.0, -1.0, 0.5] [1i64, 0i64, 2i64] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 3.0] [5.0, -2.0, 4.0] }
def either_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       if xs[i] > 0
       then loop acc for j < 2 do intrinsics.acc_write acc ((is[i] + j) % m) xs[i]
       else intrinsics.acc_write acc is[i] (xs[i] * xs[i]))
    (iota n)
entry either [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = either_f d xs is
entry either_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> either_f d xs is) (d, xs) ys

-- Products in a loop (forward mode rewrites these too, having no tangent
-- accumulator for `*`): each x_i multiplies both buckets. At d = [2, 3], x
-- = [1.5, -1, 2]: y = [2·-3, 3·-3] = [-6, -9]; with ȳ = [1, 1]: d̄ = [-3,
-- -3], x̄_i = (y_0 + y_1)/x_i = [-10, 15, -7.5].
-- ==
-- entry: scaled
-- gradcheck input { [2.0, 3.0] [1.5, -1.0, 2.0] [1.0, 1.0] }
-- output { [-6.0, -9.0] }

-- ==
-- entry: scaled_vjp
-- input { [2.0, 3.0] [1.5, -1.0, 2.0] [1.0, 1.0] }
-- output { [-3.0, -3.0] [-10.0, 15.0, -7.5] }
def scaled_f [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.hist_stream (copy d) (*) 1
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) -> loop acc for j < m do intrinsics.acc_write acc j xs[i])
    (iota n)
entry scaled [n][m] (d: [m]f64) (xs: [n]f64) (_: [m]f64) = scaled_f d xs
entry scaled_vjp [n][m] (d: [m]f64) (xs: [n]f64) (ys: [m]f64) =
  vjp (\(d, xs) -> scaled_f d xs) (d, xs) ys

-- Loops in loops, and rows written in a loop (checked against finite
-- differences; the primal values by a short Python loop).
-- ==
-- entry: nested
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [1.0, -2.0, 0.5] }
-- output { [22.75, 6.25, 22.0, 37.75] }
entry nested [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < 2 do
         loop acc for k < 3 do intrinsics.acc_write acc ((i + j + k) % m) (xs[i] * xs[i] * f64.i64 (j + 2 * k)))
    (iota n)

-- Row 2i + j of the result is (j + 1) times the squares of row i of x.
-- ==
-- entry: rows
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0]] [[1.0, -2.0], [0.5, 3.0]] }
-- output { [[1.0, 4.0], [2.0, 8.0], [0.25, 9.0], [0.5, 18.0], [9.0, 10.0]] }
entry rows [n][m][k] (d: [m][k]f64) (xs: [n][k]f64) : [m][k]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m][k]f64)) (i: i64) ->
       loop acc for j < 2 do
         intrinsics.acc_write acc (2 * i + j) (map (* f64.i64 (j + 1)) (map (\x -> x * x) xs[i])))
    (iota n)

-- A trip count given as an argument, which may be negative (no
-- iteration). With k = 3, m = 2, x = [1, 2, 3]: element i adds x_i² at
-- i, i + 1 and i + 2 (mod 2), so y = [1 + 2 + 4 + 18, 2 + 1 + 8 + 9] =
-- [25, 20]; with ȳ = d = [1, 2], x̄_i = 2x_i Σ_j ȳ[(i + j) mod 2] = [2·4,
-- 4·5, 6·4] = [8, 20, 24]. With k = -2 or 0 nothing is added.
-- ==
-- entry: bounded
-- gradcheck input { 3i64 [1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [25.0, 20.0] }
-- input { -2i64 [1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0] }

-- ==
-- entry: bounded_vjp
-- input { 3i64 [1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [8.0, 20.0, 24.0] }
-- input { -2i64 [1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [0.0, 0.0, 0.0] }
-- input { 0i64 [1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [0.0, 0.0, 0.0] }
def bounded_f [n][m] (k: i64) (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       loop acc for j < k do intrinsics.acc_write acc ((i + j) % m) (xs[i] * xs[i]))
    (iota n)
entry bounded [n][m] (k: i64) (d: [m]f64) (xs: [n]f64) : [m]f64 = bounded_f k d xs
entry bounded_vjp [n][m] (k: i64) (d: [m]f64) (xs: [n]f64) : [n]f64 = vjp (\xs -> bounded_f k d xs) xs (copy d)
