-- `#[stripmine(k)]` on a loop under `vjp` (seed 004 §3.4): the same
-- derivatives, with checkpoints ∝ k·n^(1/k) instead of n. Expected
-- values by hand: d/dx x^y = y·x^(y-1).

-- ==
-- entry: pow_vjp pow_jvp
-- input { 3i64 4.0 } output { 48.0 }
-- input { 9i64 3.0 } output { 59049.0 }
-- input { 0i64 3.0 } output { 0.0 }
-- input { 1i64 3.0 } output { 1.0 }
-- input { 1000000i64 1.0 } output { 1000000.0 }
def pow (y: i64) (x: f64) = #[stripmine(3)] loop acc = 1 for _i < y do acc * x
entry pow_vjp (y: i64) (x: f64) = vjp (pow y) x 1
entry pow_jvp (y: i64) (x: f64) = jvp (pow y) x 1

-- An array carried and updated in place: xs[i+1] = xs[i]², 17 iterations
-- (not a square: the last strip is partly out of range). Element j ends
-- as x₀^(2^j), whose derivative at x₀ = 1 is 2^j, so a seed of ones gives
-- x̄₀ = Σ_{j<18} 2^j = 2^18 - 1; the other elements are overwritten
-- before they are read.
-- ==
-- entry: chain_vjp
-- input { [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] }
-- output { [262143.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] }
def chain [n] (xs: [n]f64) =
  let xs = copy xs
  in #[stripmine(2)] loop xs for i < n - 1 do xs with [i + 1] = xs[i] * xs[i]
entry chain_vjp [n] (xs: [n]f64) = vjp chain xs (replicate n 1)

-- The primal, checked against finite differences and the dot-product
-- identity (the strip-mined loop under vjp, the plain one under jvp).
-- ==
-- entry: damped
-- gradcheck input { 0.9 [0.5, -0.25, 1.5] 37i64 }
entry damped [n] (a: f64) (xs: [n]f64) (steps: i64) : [n]f64 =
  #[stripmine(3)] loop ys = xs for i < steps do map (\y -> a * f64.sin y + 0.1 * f64.i64 (i % 3)) ys
