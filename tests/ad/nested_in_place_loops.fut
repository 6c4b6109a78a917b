-- `vjp` or `jvp` inside a loop whose body updates the loop's array in
-- place (coordinate-wise gradient steps), differentiated in reverse: the
-- return sweep restores the array after undoing the update, and the
-- nested derivative read it under the alias `loop x = …` binds, consumed
-- by then (an internal compiler error from the verifier).
--
-- `grad_steps`: x[i] := (∇ Σ v³)[i] = 3x[i]² for each i in turn (each
-- element read before it is updated), so f(x) = 3x², and vjp with y is
-- 6x·y: for x = [0.5, -1, 2], y = [1, 2, 3], [3, -12, 36].
-- ==
-- entry: grad_steps
-- input { [0.5, -1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [3.0, -12.0, 36.0] }

def steps [n] (x0: [n]f64) : [n]f64 =
  loop x = copy x0 for i < n do
    let d = vjp (\y -> f64.sum (map (\v -> v * v * v) y)) x 1.0
    in x with [i] = d[i]

entry grad_steps [n] (x0: [n]f64) (y: [n]f64) : [n]f64 = vjp steps x0 y

-- The same, checked against finite differences.
-- ==
-- entry: steps_fd
-- gradcheck input { [0.5, -1.0, 2.0, 0.25] }

entry steps_fd [n] (x0: [n]f64) : [n]f64 = steps x0

-- `tangent_steps`: x[i] := (jvp (map v³) x x)[i] = 3x[i]³, so vjp with y
-- is 9x²·y: [2.25, 18, 108]. `first_steps`: for i < 2, x[i] := (jvp (map
-- v²) x x)[0] = 2x[0]², so x[0] becomes 2a² and x[1] 8a⁴ (a = x[0]), and
-- vjp with y is [4a·y₀ + 32a³·y₁, 0, y₂]: [10, 0, 3].
-- ==
-- entry: tangent_steps
-- input { [0.5, -1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [2.25, 18.0, 108.0] }

entry tangent_steps [n] (x0: [n]f64) (y: [n]f64) : [n]f64 =
  vjp (\x0 -> loop x = copy x0 for i < n do
                let d = jvp (\y -> map (\v -> v * v * v) y) x x
                in x with [i] = d[i]) x0 y

-- ==
-- entry: first_steps
-- input { [0.5, -1.0, 2.0] [1.0, 2.0, 3.0] }
-- output { [10.0, 0.0, 3.0] }

entry first_steps [n] (x0: [n]f64) (y: [n]f64) : [n]f64 =
  vjp (\x0 -> loop x = copy x0 for i < 2 do
                let d = jvp (\y -> map (\v -> v * v) y) x x
                in x with [i] = d[0]) x0 y
