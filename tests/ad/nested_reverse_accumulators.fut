-- Reverse mode under an enclosing reverse mode: a `map` reading free
-- arrays by index returns through accumulators when every update is at
-- the top of the `withacc`'s function (which the enclosing `vjp`
-- differentiates as the `hist`s it computes, one per update), instead of
-- building a whole adjoint array per element (n² memory: 784 MB at
-- n = 10^4). An accumulator written several times per element, in the
-- program's own `hist_stream`, is differentiated the same way.

-- f = Σ x_i x_{i+1} (cyclic): ∂f/∂x_k = g_k = x_{k+1} + x_{k-1}, and
-- Σ g_k² has gradient 2 (g_{j-1} + g_{j+1}). At [1, 2, 3, 4]: g = [6, 4,
-- 6, 4], Σ g² = 104, gradient [16, 24, 16, 24].
def f [n] (xs: [n]f64) : f64 = f64.sum (map (\i -> xs[i] * xs[(i + 1) % n]) (iota n))
def gnorm [n] (xs: [n]f64) : f64 = let g = vjp f xs 1 in f64.sum (map (\x -> x * x) g)

-- ==
-- entry: gnorm_grad
-- input { [1.0, 2.0, 3.0, 4.0] } output { 104.0 [16.0, 24.0, 16.0, 24.0] }
entry gnorm_grad [n] (xs: [n]f64) = (gnorm xs, vjp gnorm xs 1)

-- A read inside a branch: the accumulator is updated inside the branch,
-- so the inner `vjp` keeps whole-array adjoints there.
def f2 [n] (xs: [n]f64) : f64 =
  f64.sum (map (\i -> if xs[i] > 0 then xs[i] * xs[(i + 1) % n] else f64.sin xs[(i + 2) % n]) (iota n))
def gnorm2 [n] (xs: [n]f64) : f64 = let g = vjp f2 xs 1 in f64.sum (map (\x -> x * x) g)

-- ==
-- entry: gnorm_fd gnorm2_fd
-- gradcheck input { [0.3, -0.7, 1.1, 0.2, -1.4] }
-- gradcheck input { [1.5, 0.25, -0.5] }
entry gnorm_fd [n] (xs: [n]f64) = gnorm xs
entry gnorm2_fd [n] (xs: [n]f64) = gnorm2 xs

-- Two writes per element into one accumulator: y = d + Σ_i (x_i at is_i,
-- x_i² at is_i + 1). At d = [0, 0, 0], x = [1, 2], is = [0, 1]:
-- y = [1, 1 + 2, 4] = [1, 3, 4]; with ȳ = [1, 10, 100], x̄_0 = ȳ_0 +
-- 2·1·ȳ_1 = 21, x̄_1 = ȳ_1 + 2·2·ȳ_2 = 410, d̄ = ȳ.
def twice [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) : [m]f64 =
  intrinsics.hist_stream (copy d) (+) 0
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       let acc = intrinsics.acc_write acc is[i] xs[i]
       in intrinsics.acc_write acc (is[i] + 1) (xs[i] * xs[i]))
    (iota n)

-- ==
-- entry: twice_vjp
-- input { [0.0, 0.0, 0.0] [1.0, 2.0] [0i64, 1i64] [1.0, 10.0, 100.0] }
-- output { [1.0, 3.0, 4.0] [1.0, 10.0, 100.0] [21.0, 410.0] }
entry twice_vjp [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) (ys: [m]f64) =
  let (y, (dd, dx)) = vjp2 (\(d, xs) -> twice d xs is) (d, xs) ys
  in (y, dd, dx)

-- ==
-- entry: twice_fd
-- gradcheck input { [0.5, -1.0, 2.0, 0.0] [1.5, -0.5, 0.75] [0i64, 2i64, 0i64] }
entry twice_fd [n][m] (d: [m]f64) (xs: [n]f64) (is: [n]i64) = twice d xs is

-- Two overwriting writes per element (`scatter_stream`), to distinct
-- places: y = d with [2i] = x_i, [2i + 1] = x_i². At d = [9, 9, 9, 9, 9],
-- x = [3, -2]: y = [3, 9, -2, 4, 9]; with ȳ = [1, 2, 3, 4, 5], x̄ =
-- [1 + 2·3·2, 3 + 2·(-2)·4] = [13, -13], d̄ = [0, 0, 0, 0, 5].
def writes2 [n][m] (d: [m]f64) (xs: [n]f64) : [m]f64 =
  intrinsics.scatter_stream (copy d)
    (\(acc: *intrinsics.acc ([m]f64)) (i: i64) ->
       let acc = intrinsics.acc_write acc (2 * i) xs[i]
       in intrinsics.acc_write acc (2 * i + 1) (xs[i] * xs[i]))
    (iota n)

-- ==
-- entry: writes2_vjp
-- input { [9.0, 9.0, 9.0, 9.0, 9.0] [3.0, -2.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [3.0, 9.0, -2.0, 4.0, 9.0] [0.0, 0.0, 0.0, 0.0, 5.0] [13.0, -13.0] }
entry writes2_vjp [n][m] (d: [m]f64) (xs: [n]f64) (ys: [m]f64) =
  let (y, (dd, dx)) = vjp2 (\(d, xs) -> writes2 d xs) (d, xs) ys
  in (y, dd, dx)

-- ==
-- entry: writes2_fd
-- gradcheck input { [0.5, -1.0, 2.0, 0.0, 1.0, 3.0, 7.0] [1.5, -0.5, 0.75] }
entry writes2_fd [n][m] (d: [m]f64) (xs: [n]f64) = writes2 d xs
