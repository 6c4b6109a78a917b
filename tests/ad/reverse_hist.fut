-- Reverse mode through histograms with operators other than `+` (seed
-- 004 §4.4's general rule: values sorted by bucket, segmented scans from
-- both ends). Expected values by reasoning, and by exact central
-- differences on rationals where stated.

-- hist (*) with zeros: a value's adjoint is the product of everything
-- else in its bucket (destination included), with no division; the
-- destination's is the product of its bucket's values. Buckets 0 and 1
-- (dest [2,3]) get [1,2,3] and [0,4]; index 5 is out of range.
-- ==
-- entry: mul
-- input { [2.0, 3.0] [0i64, 0i64, 1i64, 0i64, 1i64, 5i64] [1.0, 2.0, 0.0, 3.0, 4.0, 7.0] }
-- output { [6.0, 0.0] [12.0, 6.0, 12.0, 4.0, 0.0, 0.0] }
entry mul [n] (dest: [2]f64) (is: [n]i64) (vs: [n]f64) : ([2]f64, [n]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (*) 1 is v) (dest, vs) [1, 1]

-- max with ties: the destination wins a tie, then the first value. Bucket
-- 0: dest 5 ties vs[0] = 5; bucket 1: vs[2] = vs[3] = 7 (vs[2] wins);
-- bucket 2: dest 1 beats 0.5. Result adjoints [1,2,3].
-- ==
-- entry: max_ties
-- input { [5.0, 0.0, 1.0] [0i64, 1i64, 1i64, 1i64, 2i64, -1i64] [5.0, 3.0, 7.0, 7.0, 0.5, 100.0] }
-- output { [1.0, 0.0, 3.0] [0.0, 0.0, 2.0, 0.0, 0.0, 0.0] }
entry max_ties [n] (dest: [3]f64) (is: [n]i64) (vs: [n]f64) : ([3]f64, [n]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) f64.max f64.lowest is v) (dest, vs) [1, 2, 3]

-- Two-dimensional buckets, min: h[0][0] = min(2, 3, 1) (vs[2]),
-- h[1][1] = min(5, 4, 4) (vs[1], the first), (2,0) is out of range.
-- ==
-- entry: min_2d
-- input { [[2.0, 5.0], [5.0, 5.0]] [0i64, 1i64, 0i64, 2i64, 1i64] [0i64, 1i64, 0i64, 0i64, 1i64] [3.0, 4.0, 1.0, 9.0, 4.0] }
-- output { [[0.0, 2.0], [3.0, 0.0]] [0.0, 4.0, 1.0, 0.0, 0.0] }
entry min_2d [n] (dest: [2][2]f64) (is: [n]i64) (js: [n]i64) (vs: [n]f64) : ([2][2]f64, [n]f64) =
  vjp (\(d, v) -> reduce_by_index_2d (copy d) f64.min f64.inf (zip is js) v) (dest, vs) [[1, 2], [3, 4]]

-- A vectorised operator, min on rows: bucket 0 column 0 keeps the
-- destination's 0, column 1 takes vs[1]'s 1; bucket 1 takes vs[2].
-- ==
-- entry: rows_min
-- input { [[0.0, 9.0], [9.0, 9.0]] [0i64, 0i64, 1i64] [[1.0, 2.0], [3.0, 1.0], [4.0, 4.0]] }
-- output { [[1.0, 0.0], [0.0, 0.0]] [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0]] }
entry rows_min [n] (dest: [2][2]f64) (is: [n]i64) (vs: [n][2]f64) : ([2][2]f64, [n][2]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (map2 f64.min) [f64.inf, f64.inf] is v) (dest, vs) [[1, 1], [1, 1]]

-- A user operator, x ⊙ y = 2xy (neutral 0.5), against exact central
-- differences: dest [1,2,3], adjoints [1,2,3], index 5 out of range.
-- ==
-- entry: user_op
-- input { [1.0, 2.0, 3.0] [0i64, 2i64, 0i64, 5i64, 2i64] [1.5, 2.0, 0.5, 4.0, -1.0] }
-- output { [3.0, 2.0, -24.0] [2.0, -36.0, 6.0, 0.0, 72.0] }
entry user_op [n] (dest: [3]f64) (is: [n]i64) (vs: [n]f64) : ([3]f64, [n]f64) =
  vjp (\(d, v) -> reduce_by_index (copy d) (\x y -> x * y * 2) 0.5 is v) (dest, vs) [1, 2, 3]

-- An argmax on (value, index) pairs: only the winning value gets the
-- adjoint; ties go to the smaller index (vs[1] and vs[3] tie in bucket 0).
-- ==
-- entry: argmax
-- input { [0i64, 0i64, 1i64, 0i64] [1.0, 3.0, 2.0, 3.0] }
-- output { [0.0, 1.0, 2.0, 0.0] }
entry argmax [n] (is: [n]i64) (vs: [n]f64) : [n]f64 =
  let op (v1: f64, i1: i64) (v2: f64, i2: i64) =
    if v1 > v2 then (v1, i1) else if v2 > v1 then (v2, i2) else (v1, i64.min i1 i2)
  let f v = map (.0) (reduce_by_index (replicate 2 (f64.lowest, i64.highest)) op (f64.lowest, i64.highest) is (zip v (iota n)))
  in vjp f vs [1, 2]

-- Forward and reverse agree: the gradient of Σ h by vjp equals the
-- tangents by jvp along each unit direction.
-- ==
-- entry: agree
-- input { [0i64, 1i64, 0i64, 1i64, 0i64] [2.0, 3.0, 0.5, -1.0, 4.0] } output { true }
entry agree [n] (is: [n]i64) (vs: [n]f64) : bool =
  let f v = f64.sum (hist (*) 1 2 is v)
  let g = vjp f vs 1
  let j = tabulate n (\i -> jvp f vs (tabulate n (\k -> f64.bool (k == i))))
  in and (map2 (\a b -> f64.abs (a - b) < 1e-12) g j)
