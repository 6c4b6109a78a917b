-- Scalar derivatives where a naive formula overflows, underflows or
-- guards too much (values worked out by hand):
-- atan2: ∂/∂y = x/(x² + y²), ∂/∂x = -y/(x² + y²), so at y = x = s both
-- are ±1/(2s), whatever s's magnitude.
-- asinh' = 1/√(x² + 1), acosh' = 1/√(x² - 1): about 1/x for large x.
-- (x ** b)' = b·x^(b-1) at x = 0: ∞ for 0 < b < 1, 1 for b = 1, 0 for
-- b > 1, -∞ for b = -1, and 0 for b = 0 (Futhark's tests/ad/pow0.fut).

-- ==
-- entry: atan2_edges
-- input { 1e-200 1e-200 } output { 5e199 -5e199 }
-- input { 1e200 1e200 } output { 5e-201 -5e-201 }
-- input { 3.0 4.0 } output { 0.16 -0.12 }
entry atan2_edges (y: f64) (x: f64) = vjp (\(y, x) -> f64.atan2 y x) (y, x) 1

-- ==
-- entry: atan2_f32
-- input { 1e-25f32 1e-25f32 } output { 5e24f32 -5e24f32 }
entry atan2_f32 (y: f32) (x: f32) = vjp (\(y, x) -> f32.atan2 y x) (y, x) 1

-- ==
-- entry: hyperbolic
-- input { 1e200 } output { 1e-200 1e-200 1e-200 1e-200 }
-- input { 2.0 } output { 0.4472135954999579 0.5773502691896258 0.4472135954999579 0.5773502691896258 }
entry hyperbolic (x: f64) =
  (vjp f64.asinh x 1, vjp f64.acosh x 1, jvp f64.asinh x 1, jvp f64.acosh x 1)

-- ==
-- entry: hyperbolic_f32
-- input { 1e25f32 } output { 1e-25f32 1e-25f32 }
entry hyperbolic_f32 (x: f32) = (vjp f32.asinh x 1, vjp f32.acosh x 1)

-- ==
-- entry: pow_at_zero
-- input { 0.0 } output { f64.inf 0.0 1.0 0.0 -f64.inf f64.inf }
entry pow_at_zero (x: f64) =
  ( vjp (\a -> a ** 0.5) x 1, vjp (\a -> a ** 0.0) x 1, vjp (\a -> a ** 1.0) x 1
  , vjp (\a -> a ** 2.0) x 1, vjp (\a -> a ** (-1.0)) x 1, jvp (\a -> a ** 0.25) x 1 )

-- The digamma function (lgamma's derivative) and its derivative in f16,
-- against ψ(-0.5) = 0.036490, ψ'(-0.5) = 8.934802, Γ''(-0.5) = -31.677769
-- and ψ(-1.5) = 0.703157, ψ'(-1.5) = 9.379247, Γ''(-1.5) = 23.334180.
-- ==
-- entry: digamma_f16
-- input { -0.5f16 } output { 0.03649f16 8.934f16 -31.68f16 }
-- input { -1.5f16 } output { 0.7031f16 9.38f16 23.33f16 }
entry digamma_f16 (x: f16) =
  (vjp f16.lgamma x 1, jvp (\y -> vjp f16.lgamma y 1) x 1, jvp (\y -> vjp f16.gamma y 1) x 1)
