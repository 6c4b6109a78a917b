-- The adjoint of a three-point stencil, large enough that a multicore
-- executable updates the accumulator from several threads (atomically:
-- each element is a neighbour of two others). Values by an independent
-- computation in Python: s = u + 0.2(u[i-1] - 2u[i] + u[i+1]) (zero
-- outside), f = Σ s², ∇f = Jᵀ(2s), at u[i] = sin i, n = 300 000:
-- Σ ∇f = 2.834843544998339, ∇f[0] = 0.4766498668538449, ∇f[12345] =
-- -1.3238098748552147, ∇f[n-1] = 1.1308982387299489.
-- ==
-- input { 300000i64 }
-- output { 2.834843544998339 0.4766498668538449 -1.3238098748552147 1.1308982387299489 }

def step [n] (u: [n]f64) : [n]f64 =
  tabulate n (\i ->
    let a = if i == 0 then 0 else u[i - 1]
    let c = if i == n - 1 then 0 else u[i + 1]
    in u[i] + 0.2 * (a - 2 * u[i] + c))

entry main (n: i64) =
  let g = vjp (\u -> f64.sum (map (\x -> x * x) (step u))) (tabulate n (f64.i64 >-> f64.sin)) 1
  in (f64.sum g, g[0], g[12345], g[n - 1])
