-- The functions the hand-valued tests differentiate (reverse_soacs,
-- reverse_hist, forward_soacs, scalar_functions, sum_type_tangents,
-- negative_loop_counts, reverse_accumulators_edges, nearest_centre_wide,
-- derivative_edges), each also checked against mathematics by the
-- harness (`gradcheck`: jvp against central finite differences, vjp
-- against jvp by the dot-product identity, on every backend), at points
-- away from the ties, kinks, zeros and NaNs those tests probe on purpose.

-- reverse_soacs
-- ==
-- entry: gather
-- gradcheck input { [4.0, 3.0, 2.0, 1.0] [0i64, 0i64, 3i64, 3i64, 1i64] }
entry gather [n][m] (xs: [n]f64) (is: [m]i64) : [m]f64 = map (\i -> xs[i] * xs[i]) is

-- ==
-- entry: scaled
-- gradcheck input { 2.0 [1.0, 2.0, 3.0] }
entry scaled [n] (c: f64) (xs: [n]f64) : [n]f64 = map (* c) (map (* c) xs)

-- ==
-- entry: matmul
-- gradcheck input { [[1.0, 2.0, -1.0], [3.0, 4.0, 0.5]] [[5.0, 6.0], [7.0, 8.0], [-2.0, 0.25]] }
entry matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a

-- ==
-- entry: product
-- gradcheck input { [1.5, 2.0, -3.0, 0.5] }
entry product [n] (xs: [n]f64) : f64 = reduce (*) 1 xs

-- ==
-- entry: max_abs
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0, -6.0, 5.5] }
entry max_abs [n] (xs: [n]f64) : f64 = f64.maximum (map f64.abs xs)

-- ==
-- entry: affine
-- gradcheck input { [1.0, 3.0, 5.0] [2.0, 4.0, 6.0] }
entry affine [n] (as: [n]f64) (bs: [n]f64) : (f64, f64) =
  let op (a1: f64, b1: f64) (a2: f64, b2: f64) = (a2 + b2 * a1, b1 * b2)
  in reduce op (0, 1) (zip as bs)

-- reverse_hist
-- ==
-- entry: hist_mul
-- gradcheck input { [2.0, 3.0] [0i64, 0i64, 1i64, 0i64, 1i64, 5i64] [1.0, 2.0, 0.5, 3.0, 4.0, 7.0] }
entry hist_mul [n] (dest: [2]f64) (is: [n]i64) (vs: [n]f64) : [2]f64 =
  reduce_by_index (copy dest) (*) 1 is vs

-- ==
-- entry: hist_max
-- gradcheck input { [5.0, 0.0, 1.0] [0i64, 1i64, 1i64, 1i64, 2i64, -1i64] [6.0, 3.0, 7.0, 7.5, 0.5, 100.0] }
entry hist_max [n] (dest: [3]f64) (is: [n]i64) (vs: [n]f64) : [3]f64 =
  reduce_by_index (copy dest) f64.max f64.lowest is vs

-- ==
-- entry: hist_min_2d
-- gradcheck input { [[2.0, 5.0], [5.0, 5.5]] [0i64, 1i64, 0i64, 2i64, 1i64] [0i64, 1i64, 0i64, 0i64, 1i64] [3.0, 4.0, 1.0, 9.0, 4.5] }
entry hist_min_2d [n] (dest: [2][2]f64) (is: [n]i64) (js: [n]i64) (vs: [n]f64) : [2][2]f64 =
  reduce_by_index_2d (copy dest) f64.min f64.inf (zip is js) vs

-- ==
-- entry: hist_rows_min
-- gradcheck input { [[0.0, 9.0], [9.0, 9.0]] [0i64, 0i64, 1i64] [[1.0, 2.0], [3.0, 1.0], [4.0, 4.5]] }
entry hist_rows_min [n] (dest: [2][2]f64) (is: [n]i64) (vs: [n][2]f64) : [2][2]f64 =
  reduce_by_index (copy dest) (map2 f64.min) [f64.inf, f64.inf] is vs

-- ==
-- entry: hist_user_op
-- gradcheck input { [1.0, 2.0, 3.0] [0i64, 2i64, 0i64, 5i64, 2i64] [1.5, 2.0, 0.5, 4.0, -1.0] }
entry hist_user_op [n] (dest: [3]f64) (is: [n]i64) (vs: [n]f64) : [3]f64 =
  reduce_by_index (copy dest) (\x y -> x * y * 2) 0.5 is vs

-- ==
-- entry: hist_argmax
-- gradcheck input { [0i64, 0i64, 1i64, 0i64] [1.0, 3.0, 2.0, 3.5] }
entry hist_argmax [n] (is: [n]i64) (vs: [n]f64) : [2]f64 =
  let op (v1: f64, i1: i64) (v2: f64, i2: i64) =
    if v1 > v2 then (v1, i1) else if v2 > v1 then (v2, i2) else (v1, i64.min i1 i2)
  in map (.0) (reduce_by_index (replicate 2 (f64.lowest, i64.highest)) op (f64.lowest, i64.highest) is (zip vs (iota n)))

-- forward_soacs
-- ==
-- entry: prefix_products
-- gradcheck input { [1.0, 2.0, 3.0, -4.0, 0.5] }
entry prefix_products [n] (xs: [n]f64) : [n]f64 = scan (*) 1 xs

-- ==
-- entry: hist_sum
-- gradcheck input { [0i64, 1i64, 0i64, 2i64, 3i64] [1.0, 2.0, 3.0, 4.0, 9.0] }
entry hist_sum [n] (is: [n]i64) (vs: [n]f64) : [3]f64 = hist (+) 0 3 is (map (\v -> v * v) vs)

-- ==
-- entry: scattered
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [2i64, -1i64, 0i64] [5.0, 6.0, 7.0] }
entry scattered [n][k] (xs: [n]f64) (is: [k]i64) (vs: [k]f64) : [n]f64 =
  scatter (map (* 2) xs) is (map (\v -> v * v) vs)

-- ==
-- entry: hist_rows_of_rows
-- gradcheck input { [1i64, 0i64, 1i64] [[[0.0f32, 1.0f32], [2.0f32, -1.0f32]], [[0.5f32, 0.25f32], [3.0f32, 4.0f32]]]
--                   [[[1.0f32, -2.0f32], [0.5f32, 2.5f32]], [[-3.0f32, 2.0f32], [1.5f32, 0.75f32]], [[2.0f32, 3.0f32], [-1.0f32, 5.0f32]]] }
entry hist_rows_of_rows [n][m][k][l] (is: [n]i64) (dst: [m][k][l]f32) (vs: [n][k][l]f32) : [m][k][l]f32 =
  reduce_by_index (copy dst) (map2 (map2 f32.max)) (replicate k (replicate l f32.lowest)) is vs

-- scalar_functions: the elementary functions, composed.
-- ==
-- entry: unary
-- gradcheck input { [0.3, 0.5, 0.7] }
entry unary [n] (xs: [n]f64) : [n]f64 =
  map (\x -> f64.sqrt (x + 1) + f64.exp x + f64.log (x + 2) + f64.tanh x + f64.sin x + f64.cos x
             + f64.tan x + f64.asin x + f64.acos x + f64.atan x + f64.sinh x + f64.cosh x
             + f64.erf x + f64.abs (x - 3) + f64.cbrt (x + 8) + f64.log2 (x + 8) + f64.log10 (x + 100)
             + f64.log1p x + f64.asinh x + f64.acosh (x + 2) + f64.atanh x + f64.erfc x
             + f64.lgamma (x + 1) + f64.gamma (x + 1.5))
      xs

-- ==
-- entry: binary
-- gradcheck input { [3.0, 1.5] [4.0, 2.5] }
entry binary [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  map2 (\x y -> x / y + y ** x + x ** 3 + f64.atan2 x y + f64.hypot x y + f64.min x 5 + f64.max y 1 + 1 / x)
       xs ys

-- ==
-- entry: conversions
-- gradcheck input { 0.75f32 }
entry conversions (x: f32) : f64 = f64.f32 (x * x) / 1.5 + f64.f32 (f32.exp x)

-- sum_type_tangents
-- ==
-- entry: sums
-- gradcheck input { [1.0, -2.0, 0.5, 3.0] }
type t = #a f64 | #b f64
def weigh (l: t) : f64 = match l case #a v -> 10 * v case #b v -> v * v
entry sums [n] (xs: [n]f64) : f64 =
  let ls = map2 (\i x -> if i % 2 == 0 then #b x else #a x) (iota n) xs
  in f64.sum (map weigh ls)

-- negative_loop_counts
-- ==
-- entry: powers
-- gradcheck input { 1.5 3i64 }
-- gradcheck input { 1.5 -2i64 }
entry powers (x: f64) (k: i64) : f64 = loop acc = x for _j < 2 do loop acc for _i < k do acc * x

-- ==
-- entry: differences
-- gradcheck input { [1.0, 3.0, 2.5, 6.0] }
entry differences [n] (xs: [n]f64) : f64 = loop acc = 1f64 for i < n - 1 do acc * (xs[i+1] - xs[i])

-- reverse_accumulators_edges
-- ==
-- entry: squares_at
-- gradcheck input { [1.0, 2.0, 3.0] [0i64, 2i64, 2i64, 1i64] }
entry squares_at [n][m] (xs: [m]f64) (is: [n]i64) : [n]f64 = map (\i -> xs[i] * xs[i]) is

-- ==
-- entry: dots
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] [[2.0, 1.0], [-1.0, 4.0]] }
entry dots [n][k][d] (ps: [n][d]f64) (cs: [k][d]f64) : f64 =
  f64.sum (map (\p -> f64.sum (map (\c -> f64.sum (map2 (*) p c)) cs)) ps)

-- nearest_centre_wide, without ties
-- ==
-- entry: nearest_cost
-- gradcheck input { [[0.0f32, 0.0f32], [1.0f32, 0.5f32], [3.0f32, 2.0f32], [-1.0f32, 4.0f32]] [[0.25f32, 0.5f32], [2.0f32, 2.5f32], [-2.0f32, 3.0f32]] }
def dist [d] (p: [d]f32) (c: [d]f32) : f32 = f32.sum (map2 (\x y -> (x - y) * (x - y)) p c)
entry nearest_cost [n][k][d] (ps: [n][d]f32) (cs: [k][d]f32) : f32 =
  f32.sum (map (\p -> f32.minimum (map (dist p) cs)) ps)

-- derivative_edges, away from the edges
-- ==
-- entry: edges
-- gradcheck input { 0.5 -2.0 }
entry edges (y: f64) (x: f64) : (f64, f64) =
  (f64.atan2 y x + f64.asinh y + f64.acosh (x * x), y ** 0.5 + y ** 2.0 + x ** (-1.0) + y ** 0.25)
