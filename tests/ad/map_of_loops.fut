-- Reverse mode of a `map` whose elements each run a sequential loop (a
-- recurrence per element, as the D-LSTM is per channel): the forward map
-- returns, per element, the loop's results and its checkpoints (its
-- parameters per iteration, the inner loop's, and the elementary
-- functions of both bodies: `tanh` and `exp`, one number per iteration),
-- and the reverse map reads them instead of running the loop again. The
-- loop's array `out` has a size the loop carries (n - 1), so the reverse
-- loop's adjoint of it is reshaped to that size, and updated in place.
--
-- f w xs = Σ_j Σ_{t < n-1} g_jt · xs[t+1], where h_j0 = 0.5,
-- h_j(t+1) = tanh(w_j · h_jt + xs[t]) and g_jt is h_j(t+1) after two steps
-- of g ↦ exp(-g²)/2 + g/4. The values and gradients were computed in
-- Python by complex-step differentiation (f(x + iε) with ε = 1e-30,
-- exact to rounding), independently of ogham.
-- ==
-- entry: objective
-- gradcheck input { [0.3, -0.7] [0.1, 0.2, -0.4] }
-- output { -0.20094833049704608 }
-- gradcheck input { [1.5] [0.5, -1.0, 2.0, 0.25, -0.75] }
-- output { 0.23848784670296952 }
-- gradcheck input { [0.9, -0.2, 0.4, 1.1, -1.3, 0.05, 0.6, -0.8]
--                   [0.3, -0.6, 0.2, 0.9, -0.1, 0.45, -0.35] }

-- ==
-- entry: gradient
-- input { [0.3, -0.7] [0.1, 0.2, -0.4] }
-- output { [-0.00024217077400475712, -0.0024539732131704404]
--          [-0.0070549730303755215, 1.0316728014875398, 1.0198210248689463] }
-- input { [1.5] [0.5, -1.0, 2.0, 0.25, -0.75] }
-- output { [-0.00473388900733839]
--          [-0.0057381488742565484, 0.5196069298213455, 0.5097412320884148,
--           0.5210392805920668, 0.5217844028806446] }
-- input { [0.3, -0.7] [0.1] }
-- output { [0.0, 0.0] [0.0] }

def f [k][n] (w: [k]f64) (xs: [n]f64) : f64 =
  let tops =
    map (\wj ->
           let (_, out) =
             loop (h, out) = (0.5, replicate (n - 1) 0) for t < n - 1 do
               let h' = f64.tanh (wj * h + xs[t])
               let g = loop g = h' for _i < 2 do f64.exp (-g * g) * 0.5 + g * 0.25
               in (h', out with [t] = g)
           in out)
        w
  in f64.sum (map (\row -> f64.sum (map2 (\t y -> y * xs[t + 1]) (iota (n - 1)) row)) tops)

entry objective [k][n] (w: [k]f64) (xs: [n]f64) : f64 = f w xs

entry gradient [k][n] (w: [k]f64) (xs: [n]f64) : ([k]f64, [n]f64) =
  vjp (\(w, xs) -> f w xs) (w, xs) 1
