-- Custom reverse derivatives (`with_vjp`, `with_vjp_tape`): under `vjp`
-- the user's function gives the adjoint; elsewhere, and under `jvp`, only
-- the primal function counts. Expected values by reasoning.

-- A straight-through estimator: rounding's own derivative is 0, the
-- custom one passes the adjoint through.
-- ==
-- entry: straight_through
-- input { 2.3 } output { 2.0 1.0 }
entry straight_through (x: f64) : (f64, f64) =
  let f = with_vjp f64.round (\_ y' -> y')
  in vjp2 f x 1

-- The custom adjoint receives the primal result first: d/dx (2x) is
-- replaced by ȳ + √(2x), 1 + √5 at x = 2.5.
-- ==
-- entry: result_first
-- input { 2.5 } output { 5.0 3.23606797749979 }
entry result_first (x: f64) : (f64, f64) =
  vjp2 (with_vjp (\x -> x * 2) (\c y' -> y' + f64.sqrt c)) x 1

-- with_vjp_tape: the result is sin x, the tape x², and the custom
-- adjoint ȳ·tape = 9 at x = 3.
-- ==
-- entry: tape
-- input { 3.0 } output { 0.1411200080598672 9.0 }
entry tape (x: f64) : (f64, f64) =
  vjp2 (with_vjp_tape (\x -> (x * x, f64.sin x)) (\(t, y') -> y' * t)) x 1

-- Forward mode ignores the custom derivative: d/dx x² = 6 at 3.
-- ==
-- entry: forward
-- input { 3.0 } output { 6.0 }
entry forward (x: f64) : f64 = jvp (with_vjp (\x -> x * x) (\_ _ -> 0)) x 1

-- Inside a map, on arrays, and through a called function.
-- ==
-- entry: in_map
-- input { [1.0, 2.0] } output { [10.0, 10.0] }
entry in_map [n] (xs: [n]f64) : [n]f64 =
  vjp (map (with_vjp (\x -> x * x) (\_ y' -> y' * 10))) xs (replicate n 1)

-- ==
-- entry: called
-- input { 2.0 } output { 8.0 }
def twice_custom (x: f64) = with_vjp (\x -> 2 * x) (\_ y' -> 7 * y') x
entry called (x: f64) : f64 = vjp (\x -> twice_custom x + x) x 1

-- An array function whose adjoint is given in closed form: the
-- normalised vector x/‖x‖ with (I - yyᵀ)ȳ/‖x‖; at x = [3,4] and
-- ȳ = [1,0]: y = [0.6,0.8], (ȳ - (y·ȳ)y)/5 = [0.128, -0.096].
-- ==
-- entry: normalise
-- input { [3.0, 4.0] [1.0, 0.0] } output { [0.128, -0.096] }
entry normalise [n] (x: [n]f64) (y': [n]f64) : [n]f64 =
  let norm x = f64.sqrt (f64.sum (map (\v -> v * v) x))
  let f (x: [n]f64) =
    with_vjp_tape (\x -> let r = norm x in (r, map (/ r) x))
                  (\(r, ybar) -> let y = map (/ r) x
                                 let d = f64.sum (map2 (*) y ybar)
                                 in map2 (\yb yi -> (yb - d * yi) / r) ybar y)
                  x
  in vjp f x y'

-- Outside any derivative, with_vjp is its function.
-- ==
-- entry: plain
-- input { 4.0 } output { 16.0 }
entry plain (x: f64) : f64 = with_vjp (\x -> x * x) (\_ _ -> 0) x
