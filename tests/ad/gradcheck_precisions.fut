-- The harness's derivative checks (`gradcheck`) on programs mixing
-- precisions: the finite-difference step and the tolerances follow the
-- least precise floating-point type among the inputs and results (a step
-- of 1e-6 is lost in an f32 input rounded to 24 bits, or in an f32
-- result), and f16 gets tolerances of its own.

-- ==
-- entry: mixed_inputs
-- gradcheck input { [1.0f32, 2.0f32, 0.5f32] [0.3, 0.2, 0.1] }
entry mixed_inputs [n] (xs: [n]f32) (ys: [n]f64) : f64 =
  f64.sum (map2 (\x y -> f64.f32 x * y * y + f64.sin (f64.f32 x)) xs ys)

-- ==
-- entry: narrowed_result
-- gradcheck input { [0.75, -1.5, 2.0] }
entry narrowed_result [n] (xs: [n]f64) : f32 =
  f32.sum (map (\x -> f32.f64 (x * x * 0.5)) xs)

-- ==
-- entry: half_precision
-- gradcheck input { [1.0f16, 2.0f16, 0.5f16] }
entry half_precision [n] (xs: [n]f16) : f16 =
  f16.sum (map (\x -> x * x * 0.5 + x) xs)
