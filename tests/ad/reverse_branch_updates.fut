-- An array read by a differentiated statement and then updated in place
-- in a branch of an `if`: the return sweep of the earlier statement reads
-- the array as it was before the update (the `if` saves it, as a loop
-- does, and its re-executed branches update copies of the saved array).
-- It was used after being consumed: an internal error on every backend.
-- f x = y·ss'[0] with y = Σ sᵢ·x = 1.8x (ss = [1, 0.5, 0.3]) and ss'[0] =
-- y when y > 0, so f = y² and f' = 2·1.8·1.8x = 6.48x: 5.832 at 0.9;
-- at x = -1, ss'[0] = 1 and f' = 1.8.
-- ==
-- entry: read_then_update
-- input { [1.0, 0.5, 0.3] 0.9 } output { 5.832 }
-- input { [1.0, 0.5, 0.3] -1.0 } output { 1.8 }
entry read_then_update (ss0: [3]f64) (x: f64) : f64 =
  vjp (\x ->
         let ss = copy ss0
         let y = f64.sum (map (\s -> s * x) ss)
         let ss' = if y > 0 then ss with [0] = y else ss
         in y * ss'[0])
      x 1

-- Both branches update; the earlier read is a loop; an enclosing loop
-- carries the array.
-- ==
-- entry: both_branches
-- gradcheck input { [1.0, 0.5, 0.3] 0.9 }
-- gradcheck input { [1.0, 0.5, 0.3] -0.7 }
entry both_branches (ss0: [3]f64) (x: f64) : f64 =
  let ss = map (* x) ss0
  let y = loop acc = 0 for s in ss do acc * 0.5 + s * s
  let ss' = if y > 0.5 then ss with [0] = y * x else ss with [1] = y
  in y * ss'[0] + ss'[1] * x

-- ==
-- entry: carried
-- gradcheck input { [1.0, 0.5, 0.3] 0.9 }
entry carried (ss0: [3]f64) (x: f64) : f64 =
  let (ss, t) =
    loop (ss, t) = (map (* x) ss0, 0) for i < 4 do
      let y = f64.sum (map (\s -> f64.sin (s * x)) ss)
      let ss = if y > 0 then ss with [i % 3] = y else ss with [0] = t
      in (ss, t + y * ss[1])
  in t + f64.sum ss
