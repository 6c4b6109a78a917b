-- Forward mode on every differentiable scalar function of f64: each
-- element is `jvp f x 1`, the derivative of f at x, and the expected
-- values are the derivatives worked out by hand (sqrt' 4 = 1/(2·2),
-- tanh' 0.5 = 1 - tanh² 0.5, erf' 0.5 = 2/√π·e^(-1/4), …) and evaluated
-- in Python's math module.
-- ==
-- entry: unary
-- input { }
-- output { [0.25, 2.718281828459045, 0.5, 0.7864477329659274, 0.5403023058681398,
--           -0.8414709848078965, 3.42551882081476, 1.1547005383792517, -1.1547005383792517,
--           0.5, 1.5430806348152437, 1.1752011936438014, 0.8787825789354448, -1.0,
--           0.08333333333333333, 0.18033688011112042, 0.004342944819032518, 0.5,
--           0.7071067811865475, 0.5773502691896258, 1.3333333333333333,
--           -0.8787825789354448, 0.0, 0.0] }
entry unary : []f64 =
  [ jvp f64.sqrt 4 1, jvp f64.exp 1 1, jvp f64.log 2 1, jvp f64.tanh 0.5 1
  , jvp f64.sin 1 1, jvp f64.cos 1 1, jvp f64.tan 1 1, jvp f64.asin 0.5 1
  , jvp f64.acos 0.5 1, jvp f64.atan 1 1, jvp f64.sinh 1 1, jvp f64.cosh 1 1
  , jvp f64.erf 0.5 1, jvp f64.abs (-3) 1, jvp f64.cbrt 8 1, jvp f64.log2 8 1
  , jvp f64.log10 100 1, jvp f64.log1p 1 1, jvp f64.asinh 1 1, jvp f64.acosh 2 1
  , jvp f64.atanh 0.5 1, jvp f64.erfc 0.5 1, jvp f64.floor 2.5 1, jvp f64.sgn 2 1 ]

-- Binary operations, differentiated in each argument: (x/y)' in x at
-- (3, 4) is 1/4 and in y is -3/16; x³ at 2 is 12; 2^x at 3 is 8 ln 2;
-- atan2 x 2 at 1 is 2/(1+4); hypot x 4 at 3 is 3/5; min and max take the
-- tangent of the operand they return.
-- ==
-- entry: binary
-- input { }
-- output { [0.25, -0.1875, 12.0, 5.545177444479562, 0.4, 0.6, 1.0, 0.0, 0.0, 1.0, -0.0625] }
entry binary : []f64 =
  [ jvp (\x -> x / 4) 3 1, jvp (\y -> 3 / y) 4 1, jvp (\x -> x ** 3) 2 1
  , jvp (\x -> 2 ** x) 3 1, jvp (\x -> f64.atan2 x 2) 1 1, jvp (\x -> f64.hypot x 4) 3 1
  , jvp (\x -> f64.min x 5) 3 1, jvp (\x -> f64.min x 5) 7 1
  , jvp (\x -> f64.max x 5) 3 1, jvp (\x -> f64.max x 5) 7 1, jvp (\x -> 1 / x) 4 1 ]

-- Conversions convert the tangent, as in Futhark: f32 to f64 keeps it,
-- and through an integer the tangent 1.0 becomes 1 and then 1.0 again.
-- ==
-- entry: conversions
-- input { 1.5f32 } output { 2.0 1.0 }
entry conversions (x: f32) : (f64, f64) =
  ( jvp (\y -> f64.f32 (y * y) / 1.5) x 1
  , jvp (\y -> f64.i64 (i64.f32 y)) x 1 )

-- gamma and lgamma through the digamma function ψ: (log Γ)' = ψ and
-- Γ' = Γ·ψ. ψ(7) = H₆ - γ = 2.45 - 0.5772156649015329; ψ(2.5) =
-- ψ(-1.5) by the reflection formula (π cot(-1.5π) = 0); the values of ψ
-- are the published ones, times math.gamma for Γ'.
-- ==
-- entry: gammas
-- input { [0.3, 2.5, 7.0, -1.5] }
-- output { [-3.502524222200133, 0.7031566406452432, 1.8727843350984671, 0.7031566406452432]
--          [-10.47804284175852, 0.9347345216260857, 1348.4047212708963, 1.6617502606685963] }
entry gammas [n] (xs: [n]f64) : ([n]f64, [n]f64) =
  (map (\x -> jvp f64.lgamma x 1) xs, map (\x -> vjp f64.gamma x 1) xs)
