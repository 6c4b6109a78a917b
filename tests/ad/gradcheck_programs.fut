-- Programs checked against mathematics by the harness (`gradcheck`):
-- jvp against central finite differences (computed by the interpreter)
-- and jvp against vjp by the dot-product identity, on random directions,
-- on every backend. Inputs are chosen away from kinks (max, abs, min).

-- Log-sum-exp of a matrix-vector product.
-- ==
-- entry: logsumexp_mv
-- gradcheck input { [[1.0, -0.5, 2.0], [0.3, 0.1, -1.2]] [0.7, -0.2, 0.4] }
entry logsumexp_mv [n][m] (a: [n][m]f64) (x: [m]f64) : f64 =
  let ys = map (\r -> f64.sum (map2 (*) r x)) a
  let mx = f64.maximum ys
  in mx + f64.log (f64.sum (map (\y -> f64.exp (y - mx)) ys))

-- Explicit Euler steps of a damped oscillator, a loop over a tuple.
-- ==
-- entry: euler
-- gradcheck input { 1.0 0.5 0.3 25i64 }
entry euler (x0: f64) (v0: f64) (damping: f64) (steps: i64) : (f64, f64) =
  let dt = 0.05
  in loop (x, v) = (x0, v0) for _i < steps do
       (x + dt * v, v - dt * (x + damping * v))

-- A histogram by product and one by max, then a scan of pairs.
-- ==
-- entry: buckets
-- gradcheck input { [0i64, 2i64, 1i64, 0i64, 2i64, 9i64] [1.5, 0.5, 2.0, -1.25, 3.0, 4.0] }
entry buckets [n] (is: [n]i64) (vs: [n]f64) : ([3]f64, [3]f64, [n]f64) =
  let p = hist (*) 1 3 is vs
  let q = reduce_by_index (replicate 3 (-10)) f64.max f64.lowest is (map (\v -> v * v) vs)
  let (a, _) = unzip (scan (\(a1, b1) (a2, b2) -> (a2 + b2 * a1, b1 * b2)) (0, 1) (zip vs (map f64.sin vs)))
  in (p, q, a)

-- A two-component mixture log-likelihood with free parameters read by
-- index inside nested maps.
-- ==
-- entry: mixture
-- gradcheck input { [0.3, -1.1, 2.2, 0.8] [0.0, 1.5] [0.2, -0.3] [0.4, 0.6] }
entry mixture [n][k] (xs: [n]f64) (mus: [k]f64) (log_sigmas: [k]f64) (ws: [k]f64) : f64 =
  let component x j =
    let s = f64.exp log_sigmas[j]
    let z = (x - mus[j]) / s
    in ws[j] * f64.exp (-0.5 * z * z) / s
  in f64.sum (map (\x -> f64.log (f64.sum (map (component x) (iota k)))) xs)

-- Scatter into a copy, a while loop and a reduction with a
-- non-commutative operator (composition of affine maps).
-- ==
-- entry: mixed
-- gradcheck input { [0.5, 1.5, -0.75, 2.0] [1i64, 3i64] [0.25, -0.5] }
entry mixed [n][m] (xs: [n]f64) (is: [m]i64) (vs: [m]f64) : (f64, f64) =
  let ys = scatter (copy xs) is (map (* 3) vs)
  let (a, b) = reduce (\(a1, b1) (a2, b2) -> (a2 * a1, a2 * b1 + b2)) (1, 0) (zip ys (map f64.cos ys))
  let (s, _) = loop (s, i) = (0.0, 0) while i < n do (s + ys[i] * s + 1, i + 1)
  in (a + b, s)

-- A 2-D stencil reading the centre and a neighbour in each dimension:
-- reverse mode adds each element's adjoint at three places, two of them in
-- one row, which it builds from zeros and adds into the adjoint (once a
-- whole row per element: O(n³) on an n×n grid).
-- ==
-- entry: stencil
-- gradcheck input { [[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 1.0], [-2.0, 0.5, 1.25, -0.75]] }
entry stencil [n][m] (u: [n][m]f64) : f64 =
  let v = tabulate_2d n m (\i j -> u[i][j] + u[i64.max 0 (i - 1)][j] + u[i][i64.max 0 (j - 1)])
  in f64.sum (map (\r -> f64.sum (map (\x -> x * x) r)) v)

-- A recurrence written with in-place updates that read the element before:
-- the return sweep's adjoint of that read, inside a branch, is added in
-- place to the adjoint the loop carries (once a new array of zeros and a
-- sum of two arrays per iteration: O(n²)).
-- ==
-- entry: recurrence
-- gradcheck input { [0.5, -1.0, 2.0, 0.25, 1.5, -0.75] }
entry recurrence [n] (xs: [n]f64) : f64 =
  let ys = loop ys = replicate n 0 for i < n do
             let prev = if i == 0 then 0 else ys[i - 1]
             in ys with [i] = 0.9 * prev + xs[i] * xs[i]
  in f64.sum (map (\y -> y * y) ys)
