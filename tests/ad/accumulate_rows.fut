-- Adjoints of free matrices read by rows inside nested maps (GMM's Q_k):
-- reverse mode adds each point's outer product into the adjoint of the
-- matrix, which the middle end (accfuse) turns from a row map then a row
-- update into element updates of the accumulator. The gradient of
-- Σ_i Σ_k ‖Q_k x_i‖² is 2 Σ_i (Q_k x_i) x_iᵀ, worked out by hand:
-- Q_0 x_0 = [-1, -1], Q_0 x_1 = [3, 8], Q_1 x_0 = [-1, -1.5],
-- Q_1 x_1 = [0.5, -1.75]. The objective (81.5625) is also checked against
-- finite differences and vjp against jvp.

-- ==
-- entry: objective
-- gradcheck input { [[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [-1.0, 0.5]]] [[1.0, -1.0], [2.0, 0.5]] }
-- output { 81.5625 }
-- gradcheck input { [[[0.5, -2.0, 1.0], [0.25, 1.5, -1.0], [2.0, 0.0, 0.75]]] [[1.0, 2.0, -1.0], [0.5, -0.5, 3.0], [-2.0, 1.0, 1.0]] }
-- output { 96.203125 }
def sqnorm_qx [d] (q: [d][d]f64) (x: [d]f64) : f64 =
  f64.sum (map (\row -> let y = f64.sum (map2 (*) row x) in y * y) q)

entry objective [K][d][n] (qs: [K][d][d]f64) (xs: [n][d]f64) : f64 =
  f64.sum (map (\x -> f64.sum (map (\q -> sqnorm_qx q x) qs)) xs)

-- ==
-- entry: gradient
-- input { [[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [-1.0, 0.5]]] [[1.0, -1.0], [2.0, 0.5]] }
-- output { [[[10.0, 5.0], [30.0, 10.0]], [[0.0, 2.5], [-10.0, 1.25]]] }
-- input { [[[1.0, 2.0], [3.0, 4.0]]] empty([0][2]f64) }
-- output { [[[0.0, 0.0], [0.0, 0.0]]] }
entry gradient [K][d][n] (qs: [K][d][d]f64) (xs: [n][d]f64) : [K][d][d]f64 =
  vjp (\q -> objective q xs) qs 1

-- The adjoint of a row selected per point by an index (as GMM's means):
-- d/dm_c Σ_i ‖x_i - m_{c_i}‖² = -2 Σ_{i: c_i = c} (x_i - m_c); points
-- whose index is out of range read row 0 through a clamp, so row 0 gets
-- their adjoint too. x = [[1, 2], [3, 5], [0, 0]], c = [1, 1, 7],
-- m = [[1, 1], [2, 2]]: row 1 gets -2((1-2, 2-2) + (3-2, 5-2)) =
-- [0, -6]; the third point reads row 0: -2(0-1, 0-1) = [2, 2].
-- ==
-- entry: selected_rows
-- input { [[1.0, 2.0], [3.0, 5.0], [0.0, 0.0]] [1i64, 1i64, 7i64] [[1.0, 1.0], [2.0, 2.0]] }
-- output { [[2.0, 2.0], [0.0, -6.0]] }
entry selected_rows [n][d][k] (xs: [n][d]f64) (cs: [n]i64) (ms: [k][d]f64) : [k][d]f64 =
  vjp (\ms -> f64.sum (map2 (\x c -> let m = ms[if c < k then c else 0]
                                    in f64.sum (map2 (\a b -> (a - b) * (a - b)) x m)) xs cs)) ms 1
