-- Operators of reduce, scan and hist that read a differentiated variable
-- from outside (a temperature, a rate): every application contributes to
-- its derivative. Forward mode lifts such an operator to pairs even where
-- the operands have no tangent, and gives the neutral element its own
-- tangent (`-s` below); reverse mode runs such a SOAC as the sequential
-- loop it equals (the parallel rules differentiate an operator with
-- respect to its operands only). Expected values by hand, and for the
-- soft maximum from its closed form (Python).

-- x ⊕ y = x + y + s·x·y is associative with neutral element 0:
-- 1 ⊕ 2 ⊕ 3 = 6 + 11s + 6s², whose derivative at s = 0.5 is 17.
-- ==
-- entry: reduce_fwd reduce_rev
-- input { 0.5 } output { 17.0 }
entry reduce_fwd (s: f64) : f64 = jvp (\s -> reduce (\x y -> x + y + s * x * y) 0 [1.0, 2.0, 3.0]) s 1
entry reduce_rev (s: f64) : f64 = vjp (\s -> reduce (\x y -> x + y + s * x * y) 0 [1.0, 2.0, 3.0]) s 1

-- a ⊕ b = a + b + s with neutral element -s: the scan of [1, 2, 3] is
-- [1, 3 + s, 6 + 2s]; the reduce of xs is Σxs + (n-1)s, whose derivative
-- along (0, 1) is n - 1 (the neutral element's tangent, -1, cancels the
-- application to it).
-- ==
-- entry: scan_fwd
-- input { 0.5 } output { [0.0, 1.0, 2.0] }
-- entry: scan_rev
-- input { 0.5 } output { 3.0 }
-- entry: neutral_fwd
-- input { [1.0, 2.0, 3.0] 0.5 } output { 2.0 }
-- input { empty([0]f64) 0.5 } output { -1.0 }
entry scan_fwd (s: f64) : [3]f64 = jvp (\s -> scan (\a b -> a + b + s) (-s) [1.0, 2.0, 3.0]) s 1
entry scan_rev (s: f64) : f64 = vjp (\s -> scan (\a b -> a + b + s) (-s) [1.0, 2.0, 3.0]) s [1, 1, 1]
entry neutral_fwd [n] (xs: [n]f64) (s: f64) : f64 =
  jvp (\(xs, s) -> reduce (\x y -> x + y + s) (-s) xs) (xs, s) (replicate n 0, 1)

-- The same operator in a histogram: bucket 0 gets 1 and 2, so
-- -s ⊕ 1 ⊕ 2 = 3 + s; bucket 1 gets 3: -s ⊕ 3 = 3.
-- ==
-- entry: hist_fwd
-- input { 0.5 } output { [1.0, 0.0] }
-- entry: hist_rev
-- input { 0.5 } output { 1.0 }
entry hist_fwd (s: f64) : [2]f64 = jvp (\s -> hist (\a b -> a + b + s) (-s) 2 [0, 0, 1] [1.0, 2.0, 3.0]) s 1
entry hist_rev (s: f64) : f64 = vjp (\s -> hist (\a b -> a + b + s) (-s) 2 [0, 0, 1] [1.0, 2.0, 3.0]) s [1, 1]

-- A soft maximum with temperature t, t·log(exp(a/t) + exp(b/t)), whose
-- reduction is t·log Σ exp(x/t): d/dt = log Σ e^{x/t} - Σ x e^{x/t} / (t Σ
-- e^{x/t}), d/dx = the softmax. Its neutral element is -∞, where the
-- operator's derivative is 0·∞: the loop starts from the first element.
-- ==
-- entry: soft_max
-- input { [0.5, -1.3, 2.0, 0.7] 0.8 }
-- output { [0.11223037514550642, 0.01182899451262351, 0.7318339761306397, 0.14410665421123042]
--          0.8056014681661234 }
def smax (t: f64) (a: f64) (b: f64) : f64 =
  let m = f64.max a b
  in if m == -f64.inf then m else m + t * f64.log (f64.exp ((a - m) / t) + f64.exp ((b - m) / t))

entry soft_max [n] (xs: [n]f64) (t: f64) : ([n]f64, f64) =
  vjp (\(xs, t) -> reduce (smax t) (-f64.inf) xs) (xs, t) 1

-- Checked against finite differences: a histogram by soft maximum, a
-- scan whose (associative) operator reads a captured array's elements, a
-- reduction of pairs, and rows reduced with a vectorised operator.
-- ==
-- entry: buckets
-- gradcheck input { [0.5, -1.3, 2.0, 0.7, 1.1] [0i64, 1i64, 0i64, 1i64, 0i64] 0.8 }
entry buckets [n] (xs: [n]f64) (is: [n]i64) (t: f64) : [2]f64 =
  reduce_by_index (replicate 2 (-1e3)) (smax t) (-f64.inf) is xs

-- ==
-- entry: decayed
-- gradcheck input { [0.5, -1.3, 2.0, 0.7] [0.9, 0.5] }
entry decayed [n] (xs: [n]f64) (rates: [2]f64) : [n]f64 =
  scan (\a b -> a + b + rates[0] * rates[1] * a * b) 0 xs

-- ==
-- entry: pairs
-- gradcheck input { [0.5, -1.3, 2.0] [1.5, 0.25, -0.5] 0.3 }
entry pairs [n] (xs: [n]f64) (ys: [n]f64) (s: f64) : (f64, f64) =
  reduce (\(a, b) (c, d) -> (a + c + s * b * d, b + d)) (0, 0) (zip xs ys)

-- ==
-- entry: rows
-- gradcheck input { [[0.5, -1.3], [2.0, 0.7], [1.1, -0.4]] 0.3 }
entry rows [n][m] (xss: [n][m]f64) (s: f64) : [m]f64 =
  reduce (map2 (\x y -> x + y + s * x * y)) (replicate m 0) xss
