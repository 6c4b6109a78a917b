-- Σ_p Σ_k ‖Q_k (x_p - μ_k)‖², GMM's quadratic form: reverse mode adds
-- 2 (Q_k v)(v)ᵀ, v = x_p - μ_k, into Q_k's adjoint for every point and
-- component, and `accreduce` sums these outer products over the points
-- by a matrix product per component, in chunks of points. v is a map of
-- rows of arrays bound before the nest (a point's and a mean's), so it
-- is not built for every point and component ([n][K][d]): each product
-- computes its component's [chunk][d] again where it reads it, as its
-- left operand, and adds the transpose of the product into its slice of
-- the sums.
--
-- `centred` checks the gradient by finite differences. `chunked` runs
-- many points: with K·d = 1024 (d = 16, K = 64), the adjoints the sums
-- read take 8 KB a point, so under `ogham test` (1 MB chunks) the points
-- run in chunks of at most 128, three of 100 for 300 points; with d = 8,
-- K = 20 (at most 819), two of 550. Its expected values come from an independent
-- computation in Python from the closed forms ∂Q_k = 2 Σ_p (Q_k v) vᵀ
-- and ∂μ_k = -2 Σ_p Q_kᵀ Q_k v, summed as the entry sums them.
--
-- `points` takes the gradient with respect to the points as well as
-- the Q_k: each point's row of it, ∂x_p = 2 Σ_k Q_kᵀ Q_k v, is a mapped
-- result of the withacc over the points, which the chunks write into
-- their rows of the result (on multicore, chunks running on different
-- threads). Its expected values come from the same independent
-- computation of that closed form; the total of ∂Q is `chunked`'s.
-- ==
-- entry: centred
-- gradcheck input {
--   [[[1.0, 0.5, -0.25], [0.0, 2.0, 1.0], [-1.5, 0.25, 0.75]], [[0.5, 0.0, 1.0], [-1.0, 1.5, 0.0], [0.25, -0.5, 2.0]]]
--   [[0.25, -0.5, 1.0], [-1.0, 0.75, 0.5]]
--   [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 1.0, 0.25], [0.75, 0.5, 1.0]] }
-- output { 100.76171875 }

-- ==
-- entry: chunked
-- input { 300i64 16i64 64i64 }
-- output { -17705.392134241265 -936959.081448501 -118464.51706378112 }
-- input { 1100i64 8i64 20i64 }
-- output { -35851.054889074454 465458.9785072063 -38493.16389520704 }

-- ==
-- entry: points
-- input { 300i64 16i64 64i64 }
-- output { -58108.909414688 1366713.1704292353 -17705.392134241265 }
-- input { 1100i64 8i64 20i64 }
-- output { 4846.629875770645 -12478.095320418039 -35851.054889074454 }

def sqnorm_qx [d] (q: [d][d]f64) (x: [d]f64) : f64 =
  let y = map (\r -> f64.sum (map2 (*) r x)) q
  in f64.sum (map (\v -> v * v) y)

entry centred [K][d][n] (qs: [K][d][d]f64) (mus: [K][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x -> f64.sum (map2 (\q mu -> sqnorm_qx q (map2 (-) x mu)) qs mus)) xs)

entry chunked (n: i64) (d: i64) (K: i64) : (f64, f64, f64) =
  let qs = tabulate_3d K d d (\k i j -> f64.cos (0.23 * f64.i64 (k * d + i) + 0.07 * f64.i64 j) * 0.2)
  let mus = tabulate_2d K d (\k j -> f64.sin (0.31 * f64.i64 k + 0.11 * f64.i64 j) * 0.5)
  let xs = tabulate_2d n d (\p j ->
             f64.sin (0.013 * f64.i64 p * f64.i64 d + 0.29 * f64.i64 j) * (1 + 0.5 * f64.cos (0.7 * f64.i64 p)))
  let (dqs, dmus) = vjp (\(qs, mus) -> centred qs mus xs) (qs, mus) 1
  let w i j = f64.i64 ((i + 1) * (j % 5 - 2))
  let total = f64.sum (map (\m -> f64.sum (map f64.sum m)) dqs)
  let weighted = f64.sum (flatten (flatten (tabulate_3d K d d (\k i j -> dqs[k, i, j] * w i j * f64.i64 (k + 1)))))
  let weighted_mu = f64.sum (flatten (tabulate_2d K d (\k j -> dmus[k, j] * f64.i64 ((k % 7 - 3) * (j + 1)))))
  in (total, weighted, weighted_mu)

entry points (n: i64) (d: i64) (K: i64) : (f64, f64, f64) =
  let qs = tabulate_3d K d d (\k i j -> f64.cos (0.23 * f64.i64 (k * d + i) + 0.07 * f64.i64 j) * 0.2)
  let mus = tabulate_2d K d (\k j -> f64.sin (0.31 * f64.i64 k + 0.11 * f64.i64 j) * 0.5)
  let xs = tabulate_2d n d (\p j ->
             f64.sin (0.013 * f64.i64 p * f64.i64 d + 0.29 * f64.i64 j) * (1 + 0.5 * f64.cos (0.7 * f64.i64 p)))
  let (dqs, dxs) = vjp (\(qs, xs) -> centred qs mus xs) (qs, xs) 1
  let total = f64.sum (flatten dxs)
  let weighted = f64.sum (flatten (tabulate_2d n d (\p j -> dxs[p, j] * f64.i64 ((p % 7 - 3) * (j + 1)))))
  in (total, weighted, f64.sum (map (\m -> f64.sum (map f64.sum m)) dqs))
