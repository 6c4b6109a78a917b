-- A Gaussian mixture's log-likelihood and its gradient, as in the GMM
-- benchmark: for each point, a log-sum-exp over the components of
-- α_k - ½‖Q_k (x - μ_k)‖², where Q_k (x - μ_k) is a map of dot products.
-- The forward `map` over the components runs anyway in the return sweep
-- of each point (the log-sum-exp reads its results), so it saves its dot
-- products and the return sweep reads them instead of computing them
-- again (`ogham-opt/src/ad/rev/tape.rs`, `forward_map`); the test in
-- `crates/ogham-driver/tests/optimised_ir.rs` counts the dot products.
--
-- The expected values come from an independent computation in Python
-- with NumPy from the closed forms (with w_ik the softmax weights and
-- q_ik = Q_k (x_i - μ_k): ∂α_k = Σ_i w_ik, ∂μ_k = Σ_i w_ik Q_kᵀ q_ik,
-- ∂Q_k = -Σ_i w_ik q_ik (x_i - μ_k)ᵀ), checked there against central
-- finite differences.
-- ==
-- entry: objective
-- gradcheck input {
--   [0.2, -0.4] [[0.5, -1.0, 0.25], [-0.3, 0.8, 1.1]]
--   [[[1.0, 0.0, 0.0], [0.3, 0.9, 0.0], [-0.2, 0.4, 1.2]], [[0.7, 0.1, 0.0], [0.0, 1.1, -0.3], [0.5, 0.0, 0.8]]]
--   [[0.1, 0.2, -0.3], [1.0, -0.5, 0.4], [-0.7, 0.9, 0.6], [0.3, 0.3, 0.3]] }
-- output { -0.19154194233891086 }

-- ==
-- entry: gradient
-- input {
--   [0.2, -0.4] [[0.5, -1.0, 0.25], [-0.3, 0.8, 1.1]]
--   [[[1.0, 0.0, 0.0], [0.3, 0.9, 0.0], [-0.2, 0.4, 1.2]], [[0.7, 0.1, 0.0], [0.0, 1.1, -0.3], [0.5, 0.0, 0.8]]]
--   [[0.1, 0.2, -0.3], [1.0, -0.5, 0.4], [-0.7, 0.9, 0.6], [0.3, 0.3, 0.3]] }
-- output {
--   [2.046483175265804, 1.9535168247341959]
--   [[0.2832016695777355, 1.8939972676782757, 0.7948876431454477],
--    [-0.3608861077851514, -0.29277666760674204, -0.7227880562490073]]
--   [[[-0.5231638982042528, 0.5583152312591976, -0.13255141302754475],
--     [0.3455345386720021, -2.030713510278513, 0.1669166800528365],
--     [0.16889717651147584, -0.8130682763731607, -0.15392784248678856]],
--    [[-0.4548870730433906, 0.38278363245514324, 0.2665876501371915],
--     [0.55764777554658, -0.49267742223105804, -0.3221326013018341],
--     [0.010532427373826661, -0.21546115573620775, -0.8604169268055042]]] }

def logsumexp [k] (xs: [k]f64) : f64 =
  let m = f64.maximum xs
  in m + f64.log (f64.sum (map (\x -> f64.exp (x - m)) xs))

def sqnorm_times [d] (q: [d][d]f64) (v: [d]f64) : f64 =
  f64.sum (map (\row -> let s = f64.sum (map2 (*) row v) in s * s) q)

entry objective [k][d][n] (alphas: [k]f64) (means: [k][d]f64) (qs: [k][d][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x -> logsumexp (map3 (\a mu q -> a - 0.5 * sqnorm_times q (map2 (-) x mu)) alphas means qs)) xs)

entry gradient [k][d][n] (alphas: [k]f64) (means: [k][d]f64) (qs: [k][d][d]f64) (xs: [n][d]f64) =
  vjp (\(a, mu, q) -> objective a mu q xs) (alphas, means, qs) 1
