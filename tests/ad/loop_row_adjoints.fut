-- Adjoints of rows read in a sequential loop: step i reads row i of a free
-- matrix, so its adjoint is a row added into row i of the matrix's
-- adjoint, in every step of the return sweep. The middle end (`mapinto`)
-- adds the map's elements into that row directly; every application adds
-- into its own element, so the multicore backend runs the map in parallel
-- with plain additions (no atomics, no partial copies).
--
-- f xs = Σ_i Σ_j (i+1)·x_ij², so ∂f/∂x_ij = 2·(i+1)·x_ij: worked out by
-- hand for the small cases; for the large one (3 × 200 000, wide enough
-- to run in parallel) the sum of the gradient, Σ 2·(i+1)·x_ij with
-- x_ij = (7i + j) mod 13, is 14 399 928 (computed in Python; exact in
-- f64).
-- ==
-- entry: objective
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0]] }
-- output { 55.0 }

-- ==
-- entry: gradient
-- input { [[1.0, 2.0], [3.0, 4.0]] }
-- output { [[2.0, 4.0], [12.0, 16.0]] }
-- input { [[0.5, -1.0, 2.0]] }
-- output { [[1.0, -2.0, 4.0]] }
-- input { empty([0][3]f64) }
-- output { empty([0][3]f64) }

def f [n][m] (xs: [n][m]f64) : f64 =
  loop s = 0 for i < n do s + f64.sum (map (\x -> x * x * f64.i64 (i + 1)) xs[i])

entry objective [n][m] (xs: [n][m]f64) : f64 = f xs

entry gradient [n][m] (xs: [n][m]f64) : [n][m]f64 =
  vjp f xs 1

-- ==
-- entry: gradient_sum
-- input { 3i64 200000i64 }
-- output { 14399928.0 }
-- input { 2i64 3i64 }
-- output { 102.0 }
entry gradient_sum (n: i64) (m: i64) : f64 =
  let xs = tabulate_2d n m (\i j -> f64.i64 ((7 * i + j) % 13))
  in f64.sum (map f64.sum (gradient xs))
