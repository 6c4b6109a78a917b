-- Forward mode through the SOACs. Expected values are derivatives worked
-- out by hand (notes §10.6–10.10 give the Jacobians).

-- reduce (*): the tangent with all-ones direction is the sum of the
-- products leaving one element out: [1,2,3] gives 6+3+2 = 11, [2,0,3]
-- gives 0+6+0 = 6, and a zero seed gives 0.
-- ==
-- entry: product
-- input { [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] } output { 6.0 11.0 }
-- input { [2.0, 0.0, 3.0] [1.0, 1.0, 1.0] } output { 0.0 6.0 }
-- input { [2.0, 0.0, 3.0] [0.0, 0.0, 0.0] } output { 0.0 0.0 }
entry product [n] (xs: [n]f64) (dxs: [n]f64) : (f64, f64) =
  jvp2 (\xs -> reduce (*) 1 xs) xs dxs

-- The maximum of absolute values: only the (first) largest element
-- counts, with the sign of |x|' = sgn x: -6 at index 5 gives -1 in the
-- direction e5 and in the all-ones direction, 0 in the direction e4.
-- ==
-- entry: max_abs
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, -6.0, 5.0] [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] } output { -1.0 }
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, -6.0, 5.0] [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] } output { -1.0 }
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, -6.0, 5.0] [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0] } output { 0.0 }
entry max_abs [n] (xs: [n]f64) (dxs: [n]f64) : f64 =
  jvp (\xs -> f64.maximum (map f64.abs xs)) xs dxs

-- scan (*) on [1,2,3,4,5] has the lower-triangular Jacobian with rows
-- [1], [2,1], [6,3,2], [24,12,8,6], [120,60,40,30,24]; the all-ones
-- direction gives the row sums.
-- ==
-- entry: prefix_products
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] [1.0, 1.0, 1.0, 1.0, 1.0] } output { [1.0, 3.0, 11.0, 50.0, 274.0] }
-- input { [1.0, 2.0, 3.0, 4.0, 5.0] [0.0, 0.0, 1.0, 0.0, 0.0] } output { [0.0, 0.0, 2.0, 8.0, 40.0] }
entry prefix_products [n] (xs: [n]f64) (dxs: [n]f64) : [n]f64 =
  jvp (\xs -> scan (*) 1 xs) xs dxs

-- hist (+): each bucket's tangent is the sum of its values' tangents.
-- hist (*) on buckets [0,0,1] of [2,3,5]: bucket 0 is 2·3, whose tangent
-- in the all-ones direction is 3+2. With m = 3, is = [1,0,1,2,0,1] and
-- vs = [2,3,5,7,0.5,-1.5] (notes §10.7): bucket 0 = 3·0.5 (tangent
-- 0.5+3), bucket 1 = 2·5·(-1.5) (tangent -7.5-3+10), bucket 2 = 7; an
-- index out of range (3, -1) contributes nothing.
-- ==
-- entry: hist_sum
-- input { [0i64, 1i64, 0i64, 2i64, 3i64] [1.0, 2.0, 3.0, 4.0, 9.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [4.0, 2.0, 4.0] }
entry hist_sum [n] (is: [n]i64) (vs: [n]f64) (dvs: [n]f64) : [3]f64 =
  jvp (\vs -> hist (+) 0 3 is vs) vs dvs

-- ==
-- entry: hist_product
-- input { [0i64, 0i64, 1i64] [2.0, 3.0, 5.0] [1.0, 1.0, 1.0] } output { [6.0, 5.0] [5.0, 1.0] }
-- input { [1i64, 0i64, 1i64, 2i64, 0i64, 1i64, -1i64] [2.0, 3.0, 5.0, 7.0, 0.5, -1.5, 4.0] [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] }
-- output { [1.5, -15.0, 7.0] [3.5, -0.5, 1.0] }
entry hist_product [n] (is: [n]i64) (vs: [n]f64) (dvs: [n]f64) =
  let m = i64.maximum is + 1
  in jvp2 (\vs -> reduce_by_index (replicate m 1) (*) 1 is vs) vs dvs

-- scatter writes the tangents of its values where it writes the values,
-- and keeps the destination's tangents elsewhere (notes §10.9 data):
-- xs = [10,20,30,40], is = [2,0], vs = [7,8] gives [8,20,7,40].
-- ==
-- entry: scattered
-- input { [10.0, 20.0, 30.0, 40.0] [2i64, 0i64] [7.0, 8.0] [1.0, 2.0, 3.0, 4.0] [5.0, 6.0] }
-- output { [8.0, 20.0, 7.0, 40.0] [6.0, 2.0, 5.0, 4.0] }
entry scattered [n][k] (xs: [n]f64) (is: [k]i64) (vs: [k]f64) (dxs: [n]f64) (dvs: [k]f64) =
  jvp2 (\(xs, vs) -> scatter (copy xs) is vs) (xs, vs) (dxs, dvs)

-- A free variable of a lambda has its tangent inside: d/dc map (*c) xs = xs.
-- ==
-- entry: scaled
-- input { 2.0 [1.0, 2.0, 3.0] } output { [1.0, 2.0, 3.0] }
entry scaled [n] (c: f64) (xs: [n]f64) : [n]f64 = jvp (\c -> map (* c) xs) c 1

-- Matrix product C = A·B, written with map and reduce: the tangent is
-- dA·B + A·dB. A = [[1,2],[3,4]], B = [[5,6],[7,8]]: with dA = e00 and
-- dB = 0 it is [[5,6],[0,0]]; with dA = dB = ones it is
-- ones·B + A·ones = [[12,14],[12,14]] + [[3,3],[7,7]].
-- ==
-- entry: matmul
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] [[1.0, 0.0], [0.0, 0.0]] [[0.0, 0.0], [0.0, 0.0]] }
-- output { [[5.0, 6.0], [0.0, 0.0]] }
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] [[1.0, 1.0], [1.0, 1.0]] [[1.0, 1.0], [1.0, 1.0]] }
-- output { [[15.0, 17.0], [19.0, 21.0]] }
entry matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (da: [n][m]f64) (db: [m][p]f64) : [n][p]f64 =
  let mm (a: [n][m]f64, b: [m][p]f64) =
    map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a
  in jvp mm (a, b) (da, db)

-- A histogram of rows of rows under max: the lifted operator returns the
-- value and the tangent, and the tangent must be chosen by comparing the
-- accumulator before the value result overwrote it (the compiled
-- backends update the destination in place). vs[0] = 1 beats the
-- destination's 0 in bucket 0 and carries tangent 1; bucket 1 takes
-- vs[1], whose tangent is 0.
-- ==
-- entry: hist_rows_of_rows
-- input { [0i64, 1i64] [[[0f32, 5f32]], [[0f32, 5f32]]] [[[1f32, 2f32]], [[2f32, 9f32]]] }
-- output { [[[1f32, 0f32]], [[0f32, 0f32]]] }
entry hist_rows_of_rows [n] [m] [k] [l] (is: [n]i64) (dst: [m][k][l]f32) (vs: [n][k][l]f32) =
  let f vs = reduce_by_index (copy dst) (map2 (map2 f32.max)) (replicate k (replicate l f32.lowest)) is vs
  in jvp f vs (tabulate n (\i -> replicate k (replicate l (if i == 0 then 1 else 0))))
