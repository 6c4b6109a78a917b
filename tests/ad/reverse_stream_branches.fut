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
