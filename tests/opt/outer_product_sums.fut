-- Gradients whose adjoint of a matrix is a sum of outer products over a
-- map's iterations: for f(Q, X) = Σ_p ‖Q x_p‖², ∂Q = 2 Σ_p (Q x_p) x_pᵀ
-- and ∂x_p = 2 QᵀQ x_p. Reverse mode adds each point's outer product into
-- ∂Q's accumulator and each row's Qᵀ(…) contribution into ∂x_p's; the
-- `accreduce` pass (`ogham-opt/src/accreduce.rs`) makes the first a
-- matrix product over the points and the second a matrix–vector
-- product per point, which the C backends tile (the products read their
-- operands through register tiles, in blocks of the points).
--
-- Expected values: from the closed forms above in NumPy (∂Q = 2QXᵀX,
-- ∂X = 2XQᵀQ, ∂Q_k = 2Q_kXᵀX), checked there against central finite
-- differences. The `large` entry is big enough for every fast path
-- (40 columns: a whole tile of 32 and a partial one; 600 points: two
-- blocks of the tiles' reduction) and returns weighted sums of the
-- gradients, computed alike in NumPy from the same formulas.
-- ==
-- entry: quad
-- gradcheck input {
--   [[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output { 34.2265625 }

-- ==
-- entry: quad_grad
-- input {
--   [[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output {
--   [[11.75, -1.375, -2.90625], [-7.5, 6.5, 5.625], [-21.5, 5.625, 5.84375]]
--   [[-2.5, -0.25, 1.0], [11.125, -1.6875, -5.75], [-13.4375, 9.15625, 10.4375], [2.25, 8.625, 3.25]] }

-- ==
-- entry: prior_grad
-- input {
--   [[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output { [[13.75, -0.375, -3.40625], [-7.5, 10.5, 7.625], [-24.5, 6.125, 7.34375]] }

-- ==
-- entry: components
-- gradcheck input {
--   [[[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]], [[0.5, 0.0, 1.0], [-1.0, 1.5, 0.0], [0.25, -0.5, 2.0]]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output { 86.08984375 }

-- ==
-- entry: components_grad
-- input {
--   [[[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]], [[0.5, 0.0, 1.0], [-1.0, 1.5, 0.0], [0.25, -0.5, 2.0]]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output {
--   [[[11.75, -1.375, -2.90625], [-7.5, 6.5, 5.625], [-21.5, 5.625, 5.84375]],
--    [[8.0625, -4.625, 11.125], [-20.5, 11.0, -4.75], [7.65625, -8.3125, 22.75]]] }

-- ==
-- entry: large
-- input { 600i64 40i64 3i64 }
-- output { -6.666539939684796 9331.408103084032 10102.078626547698 -5900.242627810843 -424165.7455845503 }

-- The arrays the sums read take 8·K·d = 8 KB per point here, so the
-- points run in chunks of at most 128 (`accreduce`'s 1 MB under `ogham
-- test`): nine chunks of 122 or 123, each reading its rows of X and
-- writing its rows of ∂X. The second case (d = 16, K = 128: 32 KB a
-- point, ten chunks of 30) adds sums of 128·16·16 elements per chunk, as many as
-- the multicore backend adds in parallel, row by row of K.
-- ==
-- entry: chunked
-- input { 1100i64 8i64 128i64 }
-- output { -6944.185799210565 1327500.4361798558 -81283.33013845816 }
-- input { 300i64 16i64 128i64 }
-- output { -1474.4147274011073 4368576.87610114 2723851.812072539 }

def sqnorm_qx [d] (q: [d][d]f64) (x: [d]f64) : f64 =
  let y = map (\r -> f64.sum (map2 (*) r x)) q
  in f64.sum (map (\v -> v * v) y)

entry quad [n][d] (q: [d][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x -> sqnorm_qx q x) xs)

entry quad_grad [n][d] (q: [d][d]f64) (xs: [n][d]f64) : ([d][d]f64, [n][d]f64) =
  vjp (\(q, xs) -> quad q xs) (q, xs) 1

-- A second use of Q, after the map: its adjoint is added to the sums.
entry prior_grad [n][d] (q: [d][d]f64) (xs: [n][d]f64) : [d][d]f64 =
  vjp (\q -> quad q xs + f64.sum (map (\r -> f64.sum (map (\v -> v * v) r)) q)) q 1

entry components [n][K][d] (qs: [K][d][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x -> f64.sum (map (\q -> sqnorm_qx q x) qs)) xs)

entry components_grad [n][K][d] (qs: [K][d][d]f64) (xs: [n][d]f64) : [K][d][d]f64 =
  vjp (\qs -> components qs xs) qs 1

entry large (n: i64) (d: i64) (K: i64) : (f64, f64, f64, f64, f64) =
  let q = tabulate_2d d d (\i j -> f64.sin (0.37 * f64.i64 i * f64.i64 d + 0.11 * f64.i64 j + 0.5) * 0.3)
  let qs = tabulate_3d K d d (\k i j -> f64.cos (0.23 * f64.i64 (k * d + i) + 0.07 * f64.i64 j) * 0.2)
  let xs = tabulate_2d n d (\p j ->
             f64.sin (0.013 * f64.i64 p * f64.i64 d + 0.29 * f64.i64 j) * (1 + 0.5 * f64.cos (0.7 * f64.i64 p)))
  let (dq, dx) = quad_grad q xs
  let dqs = components_grad qs xs
  let w i j = f64.i64 ((i + 1) * (j % 5 - 2))
  let wx p j = f64.i64 ((p % 7 - 3) * (j + 1))
  let total = f64.sum (map f64.sum dq)
  let weighted = f64.sum (flatten (tabulate_2d d d (\i j -> dq[i, j] * w i j)))
  let weighted_x = f64.sum (flatten (tabulate_2d n d (\p j -> dx[p, j] * wx p j)))
  let total_k = f64.sum (map (\m -> f64.sum (map f64.sum m)) dqs)
  let weighted_k = f64.sum (flatten (flatten (tabulate_3d K d d (\k i j -> dqs[k, i, j] * w i j * f64.i64 (k + 1)))))
  in (total, weighted, weighted_x, total_k, weighted_k)

entry chunked (n: i64) (d: i64) (K: i64) : (f64, f64, f64) =
  let qs = tabulate_3d K d d (\k i j -> f64.cos (0.23 * f64.i64 (k * d + i) + 0.07 * f64.i64 j) * 0.2)
  let xs = tabulate_2d n d (\p j ->
             f64.sin (0.013 * f64.i64 p * f64.i64 d + 0.29 * f64.i64 j) * (1 + 0.5 * f64.cos (0.7 * f64.i64 p)))
  let (dqs, dx) = vjp (\(qs, xs) -> components qs xs) (qs, xs) 1
  let w i j = f64.i64 ((i + 1) * (j % 5 - 2))
  let wx p j = f64.i64 ((p % 7 - 3) * (j + 1))
  let total_k = f64.sum (map (\m -> f64.sum (map f64.sum m)) dqs)
  let weighted_k = f64.sum (flatten (flatten (tabulate_3d K d d (\k i j -> dqs[k, i, j] * w i j * f64.i64 (k + 1)))))
  let weighted_x = f64.sum (flatten (tabulate_2d n d (\p j -> dx[p, j] * wx p j)))
  in (total_k, weighted_k, weighted_x)
