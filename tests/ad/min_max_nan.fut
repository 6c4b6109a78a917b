-- `f64.min` and `f64.max` ignore a NaN operand (`f64.min 1 nan` is 1), so
-- the derivative goes to the operand returned: the one that is not NaN.
-- Both NaN: the result is NaN and the first operand's, as on ties.
-- ==
-- entry: smin smax
-- input { 1.0 f64.nan }
-- output { 1.0 0.0 }
-- input { f64.nan 1.0 }
-- output { 0.0 1.0 }
-- input { 2.0 2.0 }
-- output { 1.0 0.0 }
-- input { f64.nan f64.nan }
-- output { 1.0 0.0 }

entry smin (x: f64) (y: f64) : (f64, f64) = vjp (\(x, y) -> f64.min x y) (x, y) 1
entry smax (x: f64) (y: f64) : (f64, f64) = vjp (\(x, y) -> f64.max x y) (x, y) 1

-- Forward mode: the tangent of the operand returned, 10 for x, 100 for y.
-- ==
-- entry: jmin
-- input { 1.0 f64.nan }
-- output { 10.0 }
-- input { f64.nan 1.0 }
-- output { 100.0 }
-- input { 3.0 1.0 }
-- output { 100.0 }

entry jmin (x: f64) (y: f64) : f64 = jvp (\(x, y) -> f64.min x y) (x, y) (10, 100)

-- f32 alike: max 2 nan is 2, its adjoint the first operand's.
-- ==
-- entry: smax32
-- input { 2.0f32 f32.nan }
-- output { 1.0f32 0.0f32 }

entry smax32 (x: f32) (y: f32) : (f32, f32) = vjp (\(x, y) -> f32.max x y) (x, y) 1

-- reduce_by_index with min into [0, 1] at [1, 1] of [nan, v], cotangent
-- [10, 100]: bucket 1 is min (min 1 nan) v. With v = 3 it keeps the
-- destination's 1 (adjoint 100, the values 0); with v = 0.5 it is v's
-- (the destination's element 0, v's 100, the NaN's 0). Into a NaN
-- destination's element, ∞ and ∞: the first ∞ is the result (min nan ∞
-- is ∞, then ∞ on a tie), though ∞ is also the neutral element. A NaN
-- element of the destination that no value reaches keeps its adjoint (10);
-- where all are NaN, the result is the destination's NaN, and so is its
-- adjoint. `few` has a
-- constant number of values (two), `many` as many as its argument, and
-- `user` and `user_many` an operator of their own (the general rule's
-- return sweep, pairwise for few values, by sorting for many).
-- ==
-- entry: few many user user_many
-- input { [0.0, 1.0] [1i64, 1i64] [f64.nan, 3.0] }
-- output { [10.0, 100.0] [0.0, 0.0] }
-- input { [0.0, 1.0] [1i64, 1i64] [f64.nan, 0.5] }
-- output { [10.0, 0.0] [0.0, 100.0] }
-- input { [0.0, 1.0] [1i64, 1i64] [0.5, f64.nan] }
-- output { [10.0, 0.0] [100.0, 0.0] }
-- input { [0.0, f64.nan] [1i64, 1i64] [f64.inf, f64.inf] }
-- output { [10.0, 0.0] [100.0, 0.0] }
-- input { [f64.nan, 1.0] [1i64, 1i64] [3.0, 0.5] }
-- output { [10.0, 0.0] [0.0, 100.0] }
-- input { [0.0, f64.nan] [1i64, 1i64] [f64.nan, f64.nan] }
-- output { [10.0, 100.0] [0.0, 0.0] }

entry few (d: [2]f64) (is: [2]i64) (vs: [2]f64) : ([2]f64, [2]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf [is[0], is[1]] [v[0], v[1]]) (d, vs) [10, 100]

entry many [k] (d: [2]f64) (is: [k]i64) (vs: [k]f64) : ([2]f64, [k]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf is v) (d, vs) [10, 100]

entry user (d: [2]f64) (is: [2]i64) (vs: [2]f64) : ([2]f64, [2]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (\a b -> f64.min a b) f64.inf [is[0], is[1]] [v[0], v[1]]) (d, vs) [10, 100]

entry user_many [k] (d: [2]f64) (is: [k]i64) (vs: [k]f64) : ([2]f64, [k]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (\a b -> f64.min a b) f64.inf is v) (d, vs) [10, 100]

-- Forward mode of the same: bucket 1's tangent is the destination's (2)
-- or v's (4); bucket 0 keeps the destination's 1.
-- ==
-- entry: jfew
-- input { [0.0, 1.0] [f64.nan, 3.0] }
-- output { [1.0, 2.0] }
-- input { [0.0, 1.0] [f64.nan, 0.5] }
-- output { [1.0, 4.0] }

entry jfew (d: [2]f64) (vs: [2]f64) : [2]f64 =
  jvp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf [1, 1] v) (d, vs) ([1, 2], [3, 4])
