-- The ADBench Gaussian mixture model objective and its gradient by `vjp`.
--
-- K components in d dimensions; component k has the weight parameter
-- alphas[k], the mean means[k] and icf[k] (d*(d+1)/2 numbers): the
-- inverse covariance is Q_kᵀQ_k with Q_k lower triangular, its diagonal
-- exp(icf[k][0..d]) and its strictly lower part the rest of icf[k], column
-- by column (entry (r, c), c < r, at d + c*(2d-c-1)/2 + r-c-1). With
-- β_ik = alphas[k] + Σ_j icf[k][j] - ½‖Q_k (x_i - means[k])‖² (the sum
-- over the diagonal entries is log det Q_k), the objective is
--
--   -n·d/2·log 2π + Σ_i logsumexp_k β_ik - n·logsumexp(alphas)
--   + Σ_k (½γ²‖Q_k‖²_F - m·Σ_j icf[k][j]) - K·C(γ, m)
--
-- the log-likelihood plus ADBench's Wishart prior term, with C(γ, m) =
-- N·d·(log γ - ½ log 2) - log Γ_d(N/2) and N = d + m + 1 (Γ_d the
-- multivariate gamma function). The gradient is with respect to alphas,
-- means and icf. f64.
--
-- Each Q_k is formed as a dense d×d matrix once per call, outside the map
-- over the points, and Q_k (x_i - means[k]) is taken as dot products of
-- its rows: twice the flops of a triangular product, but regular (see
-- README.md for what the triangular form costs).
-- ==
-- entry: objective
-- gradcheck nobench input {
--   [-0.1, 0.12] [[0.85, -0.07, 0.02], [0.17, -0.63, 0.02]] [[0.13, 0.29, -0.41, -0.2, -0.41, 0.31],
--   [0.19, -0.46, 0.48, 0.46, 0.15, 0.12]] [[-0.69, -0.97, 0.06], [-0.88, -0.62, -0.52], [-0.94,
--   -0.07, -0.12], [0.68, 0.04, 0.28], [-0.0, 0.32, -0.09]] 1.5 2i64 }
-- output { -5.44640967484383 }
-- notest input @ data/gmm-d64-K25-n1000.in
-- notest input @ data/gmm-d64-K25-n10000.in

-- ==
-- entry: gradient
-- nobench input {
--   [-0.1, 0.12] [[0.85, -0.07, 0.02], [0.17, -0.63, 0.02]] [[0.13, 0.29, -0.41, -0.2, -0.41, 0.31],
--   [0.19, -0.46, 0.48, 0.46, 0.15, 0.12]] [[-0.69, -0.97, 0.06], [-0.88, -0.62, -0.52], [-0.94,
--   -0.07, -0.12], [0.68, 0.04, 0.28], [-0.0, 0.32, -0.09]] 1.5 2i64 }
-- output {
--   [-0.8812790735357672, 0.881279073535767] [[-1.8401442774926133, 0.24724432223406606,
--   0.2951305240704393], [-3.679005217944749, -0.297293767737118, -1.4710284700863623]]
--   [[-0.10653756803880987, 3.012546000596306, 0.34276261298196053, -0.5841197676188882,
--   -0.47374299732964154, 0.7208763834583725], [1.0912467044365162, 2.126090266655847,
--   6.688751137856598, -0.019912127228748577, -0.9922474132193304, 0.2808851531509233]] }
-- notest input @ data/gmm-d64-K25-n1000.in
-- notest input @ data/gmm-d64-K25-n10000.in

def logsumexp [n] (xs: [n]f64) : f64 =
  let mx = f64.maximum xs
  in mx + f64.log (f64.sum (map (\x -> f64.exp (x - mx)) xs))

def sqnorm [n] (xs: [n]f64) : f64 = f64.sum (map (\x -> x * x) xs)

-- Q as a dense matrix, from its diagonal `qdiag` and its strictly lower
-- part `ltri` (column by column).
def qmatrix [d][t] (qdiag: [d]f64) (ltri: [t]f64) : [d][d]f64 =
  tabulate_2d d d (\r c ->
    if r == c then qdiag[r]
    else if c < r then ltri[c * (2 * d - c - 1) / 2 + r - c - 1]
    else 0)

-- ‖Q v‖².
def sqnorm_qtimesv [d] (q: [d][d]f64) (v: [d]f64) : f64 =
  sqnorm (map (\row -> f64.sum (map2 (*) row v)) q)

-- log Γ_p(a), the multivariate gamma function.
def log_gamma_distrib (a: f64) (p: i64) : f64 =
  0.25 * f64.i64 (p * (p - 1)) * f64.log f64.pi
  + f64.sum (map (\j -> f64.lgamma (a + 0.5 * f64.i64 (1 - j))) (1...p))

def log_wishart_prior [K][d][t] (gamma: f64) (m: i64) (qdiags: [K][d]f64) (ltris: [K][t]f64) (sum_qs: [K]f64) : f64 =
  let n = f64.i64 (d + m + 1)
  let c = n * f64.i64 d * (f64.log gamma - 0.5 * f64.log 2) - log_gamma_distrib (0.5 * n) d
  let per_component =
    map3 (\qdiag ltri sum_q -> 0.5 * gamma * gamma * (sqnorm qdiag + sqnorm ltri) - f64.i64 m * sum_q)
         qdiags ltris sum_qs
  in f64.sum per_component - f64.i64 K * c

entry objective [K][d][t][n] (alphas: [K]f64) (means: [K][d]f64) (icf: [K][t]f64)
                             (x: [n][d]f64) (gamma: f64) (m: i64) : f64 =
  let logdiags = map (\q -> q[:d] :> [d]f64) icf
  let ltris = map (\q -> q[d:] :> [t - d]f64) icf
  let qdiags = map (map f64.exp) logdiags
  let sum_qs = map f64.sum logdiags
  let qs = map2 qmatrix qdiags ltris
  let beta (xi: [d]f64) =
    map4 (\alpha mu q sum_q -> alpha + sum_q - 0.5 * sqnorm_qtimesv q (map2 (-) xi mu))
         alphas means qs sum_qs
  let slse = f64.sum (map (\xi -> logsumexp (beta xi)) x)
  let constant = -(f64.i64 (n * d)) * 0.5 * f64.log (2 * f64.pi)
  in constant + slse - f64.i64 n * logsumexp alphas + log_wishart_prior gamma m qdiags ltris sum_qs

entry gradient [K][d][t][n] (alphas: [K]f64) (means: [K][d]f64) (icf: [K][t]f64)
                            (x: [n][d]f64) (gamma: f64) (m: i64) : ([K]f64, [K][d]f64, [K][t]f64) =
  vjp (\(a, mu, q) -> objective a mu q x gamma m) (alphas, means, icf) 1
