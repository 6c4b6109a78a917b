-- The adjoint of per-component means read through a matrix–vector product
-- per point: f = Σ_i Σ_k ‖Q_k (x_i - μ_k)‖², so
--
--   ∂f/∂μ_k = Σ_i -2 Q_kᵀ Q_k (x_i - μ_k) = -2 Q_kᵀ Q_k (Σ_i x_i - n μ_k).
--
-- Reverse mode adds -Q_kᵀ w̄ into μ_k's adjoint for every point; the middle
-- end (`linhoist`) sums the w̄ over the points and runs one product per
-- component. The small case is worked out by hand: for k = 0, Σ_i (x_i -
-- μ_0) = (0, 6), Q_0 (0, 6) = (0, 18), -2 Q_0ᵀ (0, 18) = (-72, -108). The
-- large one (100 000 points, x_i = (i mod 7, i mod 5), enough to run in
-- parallel) was computed in Python from the closed form; every value is
-- an integer, exact in f64. The `_one` entries have one matrix and no
-- component level (Q_0 and μ_0 alone: the same values as component 0;
-- the objective, 142, is component 0's part of 176).
-- ==
-- entry: objective
-- gradcheck input {
--   [[[1.0, 0.0], [2.0, 3.0]], [[2.0, 1.0], [0.0, 1.0]]]
--   [[1.0, -1.0], [0.0, 2.0]]
--   [[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]] }
-- output { 176.0 }

-- ==
-- entry: gradient
-- input {
--   [[[1.0, 0.0], [2.0, 3.0]], [[2.0, 1.0], [0.0, 1.0]]]
--   [[1.0, -1.0], [0.0, 2.0]]
--   [[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]] }
-- output { [[-72.0, -108.0], [-12.0, 0.0]] }
-- input {
--   [[[1.0, 0.0], [2.0, 3.0]], [[2.0, 1.0], [0.0, 1.0]]]
--   [[1.0, -1.0], [0.0, 2.0]]
--   empty([0][2]f64) }
-- output { [[0.0, 0.0], [0.0, 0.0]] }

-- ==
-- entry: gradient_many
-- input { 100000i64 }
-- output { [[-5599950.0, -7799940.0], [-2399960.0, -1199980.0]] }

-- ==
-- entry: objective_one
-- gradcheck input {
--   [[1.0, 0.0], [2.0, 3.0]] [1.0, -1.0] [[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]] }
-- output { 142.0 }

-- ==
-- entry: gradient_one
-- input { [[1.0, 0.0], [2.0, 3.0]] [1.0, -1.0] [[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]] }
-- output { [-72.0, -108.0] }

-- ==
-- entry: gradient_one_many
-- input { 100000i64 }
-- output { [-5599950.0, -7799940.0] }

def objective_of [n][K][d] (qs: [K][d][d]f64) (mus: [K][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x ->
    f64.sum (map2 (\q mu ->
      let v = map2 (-) x mu
      let w = map (\row -> f64.sum (map2 (*) row v)) q
      in f64.sum (map (\y -> y * y) w)) qs mus)) xs)

entry objective [n][K][d] (qs: [K][d][d]f64) (mus: [K][d]f64) (xs: [n][d]f64) : f64 =
  objective_of qs mus xs

entry gradient [n][K][d] (qs: [K][d][d]f64) (mus: [K][d]f64) (xs: [n][d]f64) : [K][d]f64 =
  vjp (\m -> objective_of qs m xs) mus 1

entry gradient_many (n: i64) : [2][2]f64 =
  let qs = [[[1.0, 0.0], [2.0, 3.0]], [[2.0, 1.0], [0.0, 1.0]]]
  let mus = [[1.0, -1.0], [0.0, 2.0]]
  let xs = tabulate n (\i -> [f64.i64 (i % 7), f64.i64 (i % 5)])
  in vjp (\m -> objective_of qs m xs) mus 1

def objective_one_of [n][d] (q: [d][d]f64) (mu: [d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x ->
    let v = map2 (-) x mu
    let w = map (\row -> f64.sum (map2 (*) row v)) q
    in f64.sum (map (\y -> y * y) w)) xs)

entry objective_one [n][d] (q: [d][d]f64) (mu: [d]f64) (xs: [n][d]f64) : f64 =
  objective_one_of q mu xs

entry gradient_one [n][d] (q: [d][d]f64) (mu: [d]f64) (xs: [n][d]f64) : [d]f64 =
  vjp (\m -> objective_one_of q m xs) mu 1

entry gradient_one_many (n: i64) : [2]f64 =
  let q = [[1.0, 0.0], [2.0, 3.0]]
  let xs = tabulate n (\i -> [f64.i64 (i % 7), f64.i64 (i % 5)])
  in vjp (\m -> objective_one_of q m xs) [1.0, -1.0] 1
