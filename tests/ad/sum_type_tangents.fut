-- The (co)tangent of a sum value has its primal's constructor: the
-- result's in forward mode, the argument's in reverse mode (the tag is an
-- integer, whose derivative would be zero: the first constructor, and the
-- payload's derivative lost behind it). Expected values by hand.

type t = #a f64 | #b f64

def weigh (l: t) : f64 = match l case #a v -> 10 * v case #b v -> v * v

def which (l: t) : (i32, f64) = match l case #a g -> (0, g) case #b g -> (1, g)

-- d/dv of v² at v = 2 is 4, under #b; of 10v under #a, 10.
-- ==
-- entry: reverse_arg
-- input { 2.0 } output { 1 4.0 0 10.0 }
entry reverse_arg (s: f64) : (i32, f64, i32, f64) =
  let (i, g) = which (vjp weigh (#b s) 1)
  let (j, h) = which (vjp weigh (#a s) 1)
  in (i, g, j, h)

-- x ↦ #b (x²) at 3 along 1: #b 6.
-- ==
-- entry: forward_result
-- input { 3.0 } output { 1 6.0 0 1.0 }
entry forward_result (x: f64) : (i32, f64, i32, f64) =
  let mk (x: f64) : t = if x > 0 then #b (x * x) else #a x
  let (i, g) = which (jvp mk x 1)
  let (j, h) = which (jvp mk (-x) 1)
  in (i, g, j, h)

-- An option and an array of sum values: each element's cotangent keeps its
-- constructor; the vector forms give one tagged row per direction.
-- ==
-- entry: options
-- input { 3.0 } output { true 6.0 }
entry options (x: f64) : (bool, f64) =
  let f (o: #some f64 | #none) = match o case #some v -> v * v case #none -> 0
  in match vjp f (#some x) 1 case #some g -> (true, g) case #none -> (false, 0)

-- ==
-- entry: layers
-- input { [1.5, -2.0, 0.5] } output { [1, 0, 1] [3.0, 10.0, 1.0] }
entry layers [n] (xs: [n]f64) : ([n]i32, [n]f64) =
  let ls = map2 (\i x -> if i % 2 == 0 then #b x else #a x) (iota n) xs
  in unzip (map which (vjp (\ls -> f64.sum (map weigh ls)) ls 1))

-- ==
-- entry: rows
-- input { 3.0 } output { [1, 1] [6.0, 12.0] }
entry rows (x: f64) : ([2]i32, [2]f64) =
  let mk (x: f64) : t = if x > 0 then #b (x * x) else #a x
  in unzip (map which (jmp mk x [1, 2]))
