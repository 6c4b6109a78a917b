-- Reverse mode of maps that read free arrays (seed 004 §4.5): the return
-- sweep is a `withacc` whose accumulators are the adjoints of those
-- arrays, threaded through branches, loops and nested maps inside the
-- function. Expected values worked out by hand; every primal is also
-- checked against finite differences and by the dot-product identity.

-- A gather: y_i = xs[is_i]², so x̄_j = Σ_{is_i = j} 2 xs_j ȳ_i.
-- ==
-- entry: gather
-- gradcheck input { [1.0, 2.0, 3.0] [0i64, 2i64, 2i64, 1i64] [1.0, 1.0, 0.5, 2.0] }

-- ==
-- entry: gather_vjp
-- input { [1.0, 2.0, 3.0] [0i64, 2i64, 2i64, 1i64] [1.0, 1.0, 0.5, 2.0] }
-- output { [2.0, 8.0, 9.0] }
def gather_f [n][m] (xs: [m]f64) (is: [n]i64) = map (\i -> xs[i] * xs[i]) is
entry gather [n][m] (xs: [m]f64) (is: [n]i64) (_: [n]f64) = gather_f xs is
entry gather_vjp [n][m] (xs: [m]f64) (is: [n]i64) (ys: [n]f64) = vjp (\xs -> gather_f xs is) xs ys

-- A matrix-vector product, x read whole by every row: x̄ = Aᵀȳ, Ā = ȳxᵀ.
-- ==
-- entry: matvec
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [1.0, -1.0] [1.0, 0.0, 2.0] }

-- ==
-- entry: matvec_vjp
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [1.0, -1.0] [1.0, 0.0, 2.0] }
-- output { [[1.0, -1.0], [0.0, 0.0], [2.0, -2.0]] [11.0, 14.0] }
def matvec_f [n][m] (a: [n][m]f64) (x: [m]f64) = map (\r -> f64.sum (map2 (*) r x)) a
entry matvec [n][m] (a: [n][m]f64) (x: [m]f64) (_: [n]f64) = matvec_f a x
entry matvec_vjp [n][m] (a: [n][m]f64) (x: [m]f64) (ys: [n]f64) = vjp (\(a, x) -> matvec_f a x) (a, x) ys

-- A loop inside the function reads the free array: y_i = x_i Π_k w_k,
-- so w̄_k = Σ_i ȳ_i x_i Π_{j≠k} w_j and x̄_i = ȳ_i Π_k w_k.
-- ==
-- entry: loop_reads
-- gradcheck input { [1.0, 2.0] [2.0, 3.0] [1.0, 1.0] }

-- ==
-- entry: loop_reads_vjp
-- input { [1.0, 2.0] [2.0, 3.0] [1.0, 1.0] }
-- output { [6.0, 6.0] [9.0, 6.0] }
def loop_f [n][m] (xs: [n]f64) (ws: [m]f64) = map (\x -> loop acc = x for k < m do acc * ws[k]) xs
entry loop_reads [n][m] (xs: [n]f64) (ws: [m]f64) (_: [n]f64) = loop_f xs ws
entry loop_reads_vjp [n][m] (xs: [n]f64) (ws: [m]f64) (ys: [n]f64) = vjp (\(xs, ws) -> loop_f xs ws) (xs, ws) ys

-- A branch inside the function reads the free array: y_0 = x_0 and
-- y_i = x_i x_{i-1}; with ȳ = 1, x̄ = [1 + x_1, x_0 + x_2, x_1].
-- ==
-- entry: branch_reads
-- gradcheck input { [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] }

-- ==
-- entry: branch_reads_vjp
-- input { [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] }
-- output { [3.0, 4.0, 2.0] }
def branch_f [n] (xs: [n]f64) = map (\i -> if i > 0 then xs[i] * xs[i - 1] else xs[0]) (iota n)
entry branch_reads [n] (xs: [n]f64) (_: [n]f64) = branch_f xs
entry branch_reads_vjp [n] (xs: [n]f64) (ys: [n]f64) = vjp branch_f xs ys

-- Nested maps, the inner one reading the free array by index (the shape
-- of a mixture model): f = Σ_i Σ_k (x_i - μ_k)², so μ̄_k = Σ_i -2(x_i - μ_k)
-- and x̄_i = Σ_k 2(x_i - μ_k).
-- ==
-- entry: nested
-- gradcheck input { [1.0, 2.0, 4.0] [0.0, 3.0] }

-- ==
-- entry: nested_vjp
-- input { [1.0, 2.0, 4.0] [0.0, 3.0] }
-- output { [-2.0, 2.0, 10.0] [-14.0, 4.0] }
def nested_f [n][k] (xs: [n]f64) (mus: [k]f64) =
  f64.sum (map (\x -> f64.sum (map (\j -> (x - mus[j]) ** 2) (iota k))) xs)
entry nested [n][k] (xs: [n]f64) (mus: [k]f64) = nested_f xs mus
entry nested_vjp [n][k] (xs: [n]f64) (mus: [k]f64) = vjp (\(xs, mus) -> nested_f xs mus) (xs, mus) 1

-- The nearest-centre cost of k-means as nested maps: each point's
-- gradient goes to its nearest centre, c̄ = Σ -2(p - c) over its points,
-- p̄ = 2(p - c). Points chosen away from ties.
-- ==
-- entry: nearest
-- gradcheck input { [[0.0, 0.0], [10.0, 10.0]] [[1.0, 0.0], [9.0, 10.0], [0.0, 2.0]] }

-- ==
-- entry: nearest_vjp
-- input { [[0.0, 0.0], [10.0, 10.0]] [[1.0, 0.0], [9.0, 10.0], [0.0, 2.0]] }
-- output { [[-2.0, -4.0], [2.0, 0.0]] [[2.0, 0.0], [-2.0, 0.0], [0.0, 4.0]] }
def dist [d] (p: [d]f64) (c: [d]f64) = f64.sum (map2 (\a b -> (a - b) * (a - b)) p c)
def nearest_f [k][n][d] (cs: [k][d]f64) (ps: [n][d]f64) = f64.sum (map (\p -> f64.minimum (map (dist p) cs)) ps)
entry nearest [k][n][d] (cs: [k][d]f64) (ps: [n][d]f64) = nearest_f cs ps
entry nearest_vjp [k][n][d] (cs: [k][d]f64) (ps: [n][d]f64) = vjp (\(cs, ps) -> nearest_f cs ps) (cs, ps) 1

-- A free scalar and a free array in one function: y = c · xs[is];
-- c̄ = Σ ȳ_i xs[is_i], x̄_j = Σ_{is_i = j} c ȳ_i.
-- ==
-- entry: mixed
-- gradcheck input { 2.0 [1.0, 2.0, 3.0] [2i64, 0i64] [1.0, 1.0] }

-- ==
-- entry: mixed_vjp
-- input { 2.0 [1.0, 2.0, 3.0] [2i64, 0i64] [1.0, 1.0] }
-- output { 4.0 [2.0, 0.0, 2.0] }
def mixed_f [n][m] (c: f64) (xs: [m]f64) (is: [n]i64) = map (\i -> c * xs[i]) is
entry mixed [n][m] (c: f64) (xs: [m]f64) (is: [n]i64) (_: [n]f64) = mixed_f c xs is
entry mixed_vjp [n][m] (c: f64) (xs: [m]f64) (is: [n]i64) (ys: [n]f64) = vjp (\(c, xs) -> mixed_f c xs is) (c, xs) ys

-- Forward mode through the accumulators reverse mode built: a
-- Hessian-vector product. f = Σ_i xs[is_i]³ with is = [0, 1, 1]:
-- ∇f = [3x_0², 6x_1²], H = diag(6x_0, 12x_1); at x = [1, 2], H·[1, 1] = [6, 24].
-- ==
-- entry: hessian_vector
-- input { [1.0, 2.0] [0i64, 1i64, 1i64] [1.0, 1.0] }
-- output { [3.0, 24.0] [6.0, 24.0] }
def cubes [n][m] (is: [n]i64) (xs: [m]f64) = f64.sum (map (\i -> xs[i] * xs[i] * xs[i]) is)
entry hessian_vector [n][m] (xs: [m]f64) (is: [n]i64) (v: [m]f64) = jvp2 (\xs -> vjp (cubes is) xs 1) xs v

-- A recursive function (so a call, differentiated as a function) whose
-- map reads a free array: f = k · Σ_i xs[is_i]³ for k = 2, so
-- ∇f_j = 6·c_j·x_j² and H = diag(12·c_j·x_j), c_j the count of j in is.
-- At xs = [1, 2], is = [0, 1, 1]: ∇f = [6, 48], H·[1, 1] = [12, 48], by
-- jvp of vjp and by vjp of vjp (whose inner derivative keeps whole
-- adjoints, since the outer one differentiates it again).
-- ==
-- entry: rec_hessian_fwd rec_hessian_rev
-- input { [1.0, 2.0] [0i64, 1i64, 1i64] }
-- output { [6.0, 48.0] [12.0, 48.0] }
def rec_cubes [n][m] (is: [n]i64) (k: i64) (xs: [m]f64) : f64 =
  if k == 0 then 0 else f64.sum (map (\i -> xs[i] * xs[i] * xs[i]) is) + rec_cubes is (k - 1) xs
entry rec_hessian_fwd [n][m] (xs: [m]f64) (is: [n]i64) = (vjp (rec_cubes is 2) xs 1, jvp (\xs -> vjp (rec_cubes is 2) xs 1) xs (map (const 1) xs))
entry rec_hessian_rev [n][m] (xs: [m]f64) (is: [n]i64) =
  (vjp (rec_cubes is 2) xs 1, vjp (\xs -> f64.sum (vjp (rec_cubes is 2) xs 1)) xs 1)

-- A matrix product nest: the inner map's rows (of the free matrix) get
-- their adjoints added in place, at their index, in the enclosing
-- accumulator. Ā = C̄Bᵀ and B̄ = AᵀC̄: with A = [[1, 2], [3, 4]],
-- B = [[5, 6, 7], [8, 9, 10]] (as rows of Bᵀ: mat2 = Bᵀ) and C̄ = ones,
-- Ā = [[18, 27], [18, 27]] and (B̄)ᵀ = [[4, 6], [4, 6], [4, 6]].
-- ==
-- entry: matmat
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 8.0], [6.0, 9.0], [7.0, 10.0]] }
-- ==
-- entry: matmat_vjp
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 8.0], [6.0, 9.0], [7.0, 10.0]] }
-- output { [[18.0, 27.0], [18.0, 27.0]] [[4.0, 6.0], [4.0, 6.0], [4.0, 6.0]] }
def matmat_f [m][n][q] (a: [m][q]f64) (bt: [n][q]f64) = map (\r -> map (\c -> f64.sum (map2 (*) r c)) bt) a
entry matmat [m][n][q] (a: [m][q]f64) (bt: [n][q]f64) = matmat_f a bt
entry matmat_vjp [m][n][q] (a: [m][q]f64) (bt: [n][q]f64) =
  vjp (\(a, bt) -> matmat_f a bt) (a, bt) (replicate m (replicate n 1))
