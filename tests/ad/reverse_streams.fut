-- Reverse mode of accumulators the program makes itself, with
-- `hist_stream` (`reduce_by_index_stream`) and `scatter_stream`, whose
-- function writes once per element: each is differentiated as a map
-- making the indices and values, then a `hist` or `scatter`. Expected
-- values worked out by hand; every primal is also checked by finite
-- differences and the dot-product identity (`gradcheck`), on data without
-- ties.

-- Sums into d: y = d + Σ_{is_i = j} x_i², index 5 out of range. At d =
-- [1, 2, 3], x = [1, 2, 3, 4], is = [0, 2, 2, 5]: y = [2, 2, 16]; with
-- ȳ = [1, 2, 3], d̄ = ȳ and x̄_i = ȳ[is_i]·2x_i = [2, 12, 18, 0].
-- ==
-- entry: sum
-- gradcheck input { [1.0, 2.0, 3.0] [1.0, 2.0, 3.0, 4.0] [0i64, 2i64, 2i64, 5i64] [1.0, 2.0, 3.0] }
-- output { [2.0, 2.0, 16.0] }

-- ==
-- entry: sum_vjp
-- input { [1.0, 2.0, 3.0] [1.0, 2.0, 3.0, 4.0] [0i64, 2i64, 2i64, 5i64] [1.0, 2.0, 3.0] }
-- output { [1.0, 2.0, 3.0] [2.0, 12.0, 18.0, 0.0] }
def sum_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) -> intrinsics.acc_write acc is[i] (xs[i] * xs[i]))
    (iota n)
entry sum [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = sum_f d xs is
entry sum_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> sum_f d xs is) (d, xs) ys

-- Products into d: at d = [2, 3], x = [1.5, 2, -1], is = [1, 1, 0]:
-- y = [2·-1, 3·1.5·2] = [-2, 9]; with ȳ = [1, 1], d̄ = [-1, 1.5·2] =
-- [-1, 3] and x̄ = [3·2, 3·1.5, 2] = [6, 4.5, 2].
-- ==
-- entry: product
-- gradcheck input { [2.0, 3.0] [1.5, 2.0, -1.0] [1i64, 1i64, 0i64] [1.0, 1.0] }
-- output { [-2.0, 9.0] }

-- ==
-- entry: product_vjp
-- input { [2.0, 3.0] [1.5, 2.0, -1.0] [1i64, 1i64, 0i64] [1.0, 1.0] }
-- output { [-1.0, 3.0] [6.0, 4.5, 2.0] }
def product_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (*) 1
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) -> intrinsics.acc_write acc is[i] xs[i])
    (iota n)
entry product [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = product_f d xs is
entry product_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> product_f d xs is) (d, xs) ys

-- Maxima into d: at d = [0, 10], x = [3, 5, 4, 1], is = [0, 0, 0, 1]:
-- y = [5, 10], the 5 from x_1 and the 10 from d_1; with ȳ = [2, 3],
-- d̄ = [0, 3] and x̄ = [0, 2, 0, 0]. Ties go to the destination, then to
-- the first write: at d = [5, 0], x = [5, 5, 3, 3], is = [0, 0, 1, 1] and
-- ȳ = [1, 2], d̄ = [1, 0] and x̄ = [0, 0, 2, 0].
-- ==
-- entry: maximum
-- gradcheck input { [0.0, 10.0] [3.0, 5.0, 4.0, 1.0] [0i64, 0i64, 0i64, 1i64] [2.0, 3.0] }
-- output { [5.0, 10.0] }

-- ==
-- entry: maximum_vjp
-- input { [0.0, 10.0] [3.0, 5.0, 4.0, 1.0] [0i64, 0i64, 0i64, 1i64] [2.0, 3.0] }
-- output { [0.0, 3.0] [0.0, 2.0, 0.0, 0.0] }
-- input { [5.0, 0.0] [5.0, 5.0, 3.0, 3.0] [0i64, 0i64, 1i64, 1i64] [1.0, 2.0] }
-- output { [1.0, 0.0] [0.0, 0.0, 2.0, 0.0] }
def maximum_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) f64.max f64.lowest
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) -> intrinsics.acc_write acc is[i] xs[i])
    (iota n)
entry maximum [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = maximum_f d xs is
entry maximum_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> maximum_f d xs is) (d, xs) ys

-- Overwrites: 2x_i written at is_i, -1 out of range. At d = [1, 2, 3, 4],
-- x = [5, 6, 7], is = [2, -1, 0]: y = [14, 2, 10, 4]; with ȳ = [1, 2, 3,
-- 4], d̄ = [0, 2, 0, 4] (the overwritten elements get nothing) and x̄ =
-- [2·3, 0, 2·1] = [6, 0, 2].
-- ==
-- entry: overwrite
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [5.0, 6.0, 7.0] [2i64, -1i64, 0i64] [1.0, 2.0, 3.0, 4.0] }
-- output { [14.0, 2.0, 10.0, 4.0] }

-- ==
-- entry: overwrite_vjp
-- input { [1.0, 2.0, 3.0, 4.0] [5.0, 6.0, 7.0] [2i64, -1i64, 0i64] [1.0, 2.0, 3.0, 4.0] }
-- output { [0.0, 2.0, 0.0, 4.0] [6.0, 0.0, 2.0] }
def overwrite_f [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) -> intrinsics.acc_write acc is[i] (2 * xs[i]))
    (iota n)
entry overwrite [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (_: [m]f64) = overwrite_f d xs is
entry overwrite_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  vjp (\(d, xs) -> overwrite_f d xs is) (d, xs) ys

-- Two accumulators in one stream (a pair of arrays, summed leaf by
-- leaf): a_j += x_i and b_j += x_i·x_{i+1 mod n} at j = is_i. At x = [1,
-- 2, 3], is = [1, 0, 1] from zeros: a = [2, 4], b = [6, 2 + 3] = [6, 5];
-- with ā = [1, 2] and b̄ = [1, 1]: x̄_0 = ā_1 + b̄_1·x_1 + b̄_1·x_2 (from
-- x_2·x_0) = 2 + 2 + 3 = 7, x̄_1 = ā_0 + b̄_0·x_2 + b̄_1·x_0 = 1 + 3 + 1 = 5,
-- x̄_2 = ā_1 + b̄_1·x_0 + b̄_0·x_1 = 2 + 1 + 2 = 5. The tangent along
-- ẋ = [1, 0, 0] is ([0, 1], [0, x_1 + x_2]) = ([0, 1], [0, 5]).
-- ==
-- entry: pairs
-- gradcheck input { [1.0, 2.0, 3.0] [1i64, 0i64, 1i64] [1.0, 2.0] [1.0, 1.0] }
-- output { [2.0, 4.0] [6.0, 5.0] }

-- ==
-- entry: pairs_vjp
-- input { [1.0, 2.0, 3.0] [1i64, 0i64, 1i64] [1.0, 2.0] [1.0, 1.0] }
-- output { [7.0, 5.0, 5.0] }

-- ==
-- entry: pairs_jvp
-- input { [1.0, 2.0, 3.0] [1i64, 0i64, 1i64] [1.0, 2.0] [1.0, 1.0] }
-- output { [0.0, 1.0] [0.0, 5.0] }
def pairs_f [n] (xs: [n]f64) (is: [n]i64) : ([2]f64, [2]f64) =
  intrinsics.hist_stream (zip (replicate 2 0) (replicate 2 0)) (\(a, b) (c, d) -> (a + c, b + d)) (0, 0)
    (\(acc: *intrinsics.acc ([2](f64, f64))) (i: i64) ->
       intrinsics.acc_write acc is[i] (xs[i], xs[i] * xs[(i + 1) % n]))
    (iota n)
  |> unzip
entry pairs [n] (xs: [n]f64) (is: [n]i64) (_: [2]f64) (_: [2]f64) = pairs_f xs is
entry pairs_vjp [n] (xs: [n]f64) (is: [n]i64) (as: [2]f64) (bs: [2]f64) = vjp (\xs -> pairs_f xs is) xs (as, bs)
entry pairs_jvp [n] (xs: [n]f64) (is: [n]i64) (_: [2]f64) (_: [2]f64) =
  jvp (\xs -> pairs_f xs is) xs (tabulate n (\i -> if i == 0 then 1 else 0f64))

-- The vector form: one row of the Jacobian of `sum_f` per cotangent, at
-- the data above (ȳ = e_0, e_1, e_2): x̄ rows [2, 0, 0, 0], [0, 0, 0, 0],
-- [0, 4, 6, 0].
-- ==
-- entry: sum_rows
-- input { [1.0, 2.0, 3.0] [1.0, 2.0, 3.0, 4.0] [0i64, 2i64, 2i64, 5i64] }
-- output { [[2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 6.0, 0.0]] }
entry sum_rows [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m][n]f64 =
  mjp (\xs -> sum_f d xs is) xs (tabulate m (\j -> tabulate m (\k -> f64.bool (j == k))))
