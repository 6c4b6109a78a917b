-- Reverse mode with tapes (`ogham-opt/src/ad/rev/tape.rs`, `calls.rs`):
-- loops whose bodies hold loops and calls, and the cases where a
-- statement cannot be taped and is run again instead. The expected
-- values come from an independent computation with dual numbers (exact
-- derivatives) in Python.

-- An inner loop's result, taped, then updated in place by the outer body
-- (the re-execution reads a copy of the taped value): three steps of two
-- `sin v + v/10` each, doubling the first element after each step.
-- ==
-- entry: consumed
-- input { [0.3, -1.2, 2.0] }
-- output { [0.7092380263614153, 0.06982104562775734, -0.03979170710143504] }
entry consumed [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs ->
         let r =
           loop acc = copy xs for _t < 3 do
             let ys = loop y = acc for _i < 2 do map (\v -> f64.sin v + 0.1 * v) y
             in ys with [0] = ys[0] * 2
         in f64.sum r)
      xs
      1

-- A call whose forward half would return an array of a size it computes
-- (a concatenation): it keeps the single reverse derivative, which runs
-- the function again. `twice` is called twice so that it is not inlined.
-- ==
-- entry: sized_inside
-- input { [0.1, -0.2] }
-- output { [7.095952868791975, 4.318741690298521] }
def twice [n] (xs: [n]f64) : f64 =
  let ys = xs ++ xs
  let es = map f64.exp ys
  let a = f64.sum es
  let b = f64.sum (map (\e -> e * 0.0) es)
  let c = f64.sum (map (\y -> y * 0.0) ys)
  in a + b + c

entry sized_inside [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> loop s = 0 for t < 2 do s + twice (map (\x -> x * f64.i64 (t + 1)) xs)) xs 1

entry sized_inside_primal [n] (xs: [n]f64) : f64 = twice xs

-- A `while` loop (counted, then run as a checkpointed `for` loop) whose
-- body calls a function with a branch: exp x above zero, log (1 - x)
-- below, times 1.5, while the first element is below 3 (four times).
-- ==
-- entry: while_call
-- input { [0.2, -0.7] }
-- output { [17.167779694225096, -2.9336410823411914] }
def g (x: f64) : f64 =
  let up = f64.exp x
  let down = f64.log (1 - x)
  let y = if x > 0 then up else down
  let z = y * 1.5
  in z

def step [n] (xs: [n]f64) : [n]f64 =
  let ys = map g xs
  let zs = map (\y -> y + 0) ys
  in map2 (\y z -> 0.5 * y + 0.5 * z) ys zs

entry while_call [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs ->
         let (r, _) = loop (xs, i) = (xs, 0) while xs[0] < 3 && i < 10 do (step xs, i + 1)
         in f64.sum r)
      xs
      1

entry while_call_primal [n] (xs: [n]f64) : [n]f64 = step xs

-- An inner loop whose count depends on the outer loop's index: its saved
-- arrays have no size known before the outer loop, so it is run again
-- rather than taped.
-- ==
-- entry: varying_inner
-- input { [0.4, -0.9] }
-- output { [0.0448417762883996, 0.5016548032053445] }
-- gradcheck input { [0.4, -0.9] }
-- output { [0.0448417762883996, 0.5016548032053445] }
entry varying_inner [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs ->
         let r = loop acc = xs for t < 3 do loop acc for _i < t + 1 do map (\v -> f64.tanh v * 1.1 + 0.2) acc
         in f64.sum r)
      xs
      1

-- A loop whose body updates in place an array that may be either loop
-- parameter (a branch chooses): both are restored as copies of their
-- saved values. `a` never reaches the result (the branch picks `b`
-- first, then both are made from the choice), so its adjoint is zero.
-- ==
-- entry: branch_alias
-- input { [0.5, -0.25, 1.5] [0.75, 0.1, -0.6] }
-- output { [0.0, 0.0, 0.0] [0.018077213775897886, 0.7100434296580299, 0.4253213392604861] }
entry branch_alias [n] (xs: [n]f64) (ys: [n]f64) : ([n]f64, [n]f64) =
  vjp (\(xs, ys) ->
         let (a, b) =
           loop (a, b) = (copy xs, copy ys) for t < 3 do
             let c = if t % 2 == 1 then a else b
             let c = c with [0] = c[0] * c[1]
             let a = map (\v -> f64.sin v + 1) c
             in (a, map (\v -> v * 0.5) a)
         in f64.sum a + f64.sum b)
      (xs, ys)
      1

-- A loop whose body updates in place a row of its parameter (a view),
-- then builds the next state from it alone. The second row never reaches
-- the result, so its adjoint is zero.
-- ==
-- entry: view_update
-- input { [[0.3, 0.7], [-0.2, 0.4]] }
-- output { [[1.7109374010174556, 6.932014984423301], [0.0, 0.0]] }
entry view_update [n] (m: [2][n]f64) : [2][n]f64 =
  vjp (\(m: [2][n]f64) ->
         let s =
           loop s = copy m for _t < 2 do
             let r = s[0]
             let r = r with [0] = r[0] + r[1] * r[1]
             in [map f64.sin r, map (\v -> v * 2) r]
         in f64.sum (flatten s))
      m
      1

-- Three nested loops: the innermost loop's saved arrays are written
-- straight into rows of the middle loop's, and those into rows of the
-- outer loop's (`write_into` in `tape.rs`). Each innermost step reads the
-- input again (`0.1·x`), and the middle loop rotates the state.
-- ==
-- entry: three_deep
-- input { [0.6, -0.4, 1.1] }
-- output { [0.30361812786836345, 0.39033695873268004, 0.3196888959835378] }
entry three_deep [n] (xs: [n]f64) : [n]f64 =
  vjp (\(xs: [n]f64) ->
         let r =
           loop acc = xs for _a < 2 do
             loop acc for _b < 3 do
               let acc = loop acc for _c < 2 do map2 (\v w -> f64.tanh v * 0.9 + 0.1 * w) acc xs
               in map (\i -> acc[(i + n - 1) % n]) (iota n)
         in f64.sum (map (\v -> v * v) r))
      xs
      1
