-- Programs written as a user would, without looking at how ogham
-- differentiates them, checked against mathematics by the harness
-- (`gradcheck`: jvp against central finite differences, and vjp against
-- jvp by the dot-product identity, on every backend). Scans, reductions,
-- histograms and scatters of many shapes, convolutions, deep nests,
-- recurrences and all-pairs sums.

-- ==
-- entry: softmax_jac
-- gradcheck input { [[1.0, 2.0, 0.5], [0.1, -0.3, 0.2]] }
entry softmax_jac [n][m] (x: [n][m]f64) : [n][m]f64 =
  map (\r -> let mx = f64.maximum r
             let e = map (\v -> f64.exp (v - mx)) r
             let s = f64.sum e
             in map (/ s) e) x

-- ==
-- entry: cumsum_2d
-- gradcheck input { [[1.0, 2.0, 0.5], [0.1, -0.3, 0.2]] }
entry cumsum_2d [n][m] (x: [n][m]f64) : [n][m]f64 =
  let rows = map (scan (+) 0) x
  in transpose (map (scan (*) 1) (transpose rows))

-- ==
-- entry: hist_2d
-- gradcheck input { [0i64, 1i64, 0i64, 2i64] [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25], [1.5, 1.5]] }
entry hist_2d [n][d] (is: [n]i64) (vs: [n][d]f64) : [3][d]f64 =
  hist (map2 (+)) (replicate d 0) 3 is (map (map (\v -> v * v)) vs)

-- ==
-- entry: scatter_2d
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] [2i64, 0i64] [[7.0, 8.0], [9.0, 1.0]] }
entry scatter_2d [n][m][k] (a: [n][m]f64) (is: [k]i64) (rows: [k][m]f64) : f64 =
  let b = scatter (map (map (* 2)) a) is (map (map f64.sin) rows)
  in f64.sum (map (\r -> f64.sum (map2 (*) r r)) b)

-- ==
-- entry: while_bisect
-- gradcheck input { 2.0 0.75 }
entry while_bisect (a: f64) (b: f64) : f64 =
  -- fixed point of x = cos(a x) * b, by iteration until converged
  let (x, _) = loop (x, k) = (0.5, 0i32) while k < 200 && f64.abs (x - f64.cos (a * x) * b) > 1e-14 do (f64.cos (a * x) * b, k + 1)
  in x

-- ==
-- entry: matinv_det
-- gradcheck input { [[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.4, 3.0]] }
entry matinv_det [n] (a: [n][n]f64) : f64 =
  -- LU without pivoting, determinant as product of the diagonal
  let lu = loop lu = copy a for k < n do
    let piv = lu[k, k]
    in tabulate_2d n n (\i j -> if i > k && j >= k then (if j == k then lu[i, k] / piv else lu[i, j] - lu[i, k] / piv * lu[k, j]) else lu[i, j])
  in f64.product (map (\i -> lu[i, i]) (iota n))

-- ==
-- entry: segmented_like
-- gradcheck input { [1.0, 2.0, 3.0, 4.0, 5.0] [true, false, true, false, false] }
entry segmented_like [n] (xs: [n]f64) (flags: [n]bool) : [n]f64 =
  let (_, res) = unzip (scan (\(f1, v1) (f2, v2) -> (f1 || f2, if f2 then v2 else v1 + v2)) (false, 0) (zip flags xs))
  in map2 (*) res xs

-- ==
-- entry: f32_mix
-- gradcheck input { [0.5f32, 1.25f32, 2.0f32] }
entry f32_mix [n] (xs: [n]f32) : f32 =
  f32.sum (map (\x -> f32.sqrt x * f32.log (x + 1) + x ** 1.5f32) xs)

-- ==
-- entry: jvp_in_vjp
-- gradcheck input { [0.5, 1.25, 2.0] }
entry jvp_in_vjp [n] (xs: [n]f64) : [n]f64 =
  vjp (\x -> jvp (\y -> f64.sum (map f64.sin (map2 (*) y y))) x (replicate n 1)) xs 1

-- ==
-- entry: integers_mixed
-- gradcheck input { [0.5, 1.25, 2.0] [3i32, 1i32, 2i32] }
entry integers_mixed [n] (xs: [n]f64) (ks: [n]i32) : (f64, i32) =
  let ys = map2 (\x k -> x ** f64.i32 k + f64.i32 (k * 2)) xs ks
  in (f64.sum ys, i32.sum ks)

-- ==
-- entry: reduce_tuple_nc
-- gradcheck input { [[1.0, 0.5], [0.3, 2.0], [1.5, -0.5]] }
entry reduce_tuple_nc [n] (ms: [n][2]f64) : (f64, f64, f64, f64) =
  -- product of 2x2 matrices [[a, b], [0, 1]] : non-commutative
  reduce (\(a1, b1, c1, d1) (a2, b2, c2, d2) -> (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2))
         (1, 0, 0, 1) (map (\r -> (r[0], r[1], r[1] * 0.5, 1 + r[0] * r[0])) ms)

-- ==
-- entry: conv1d
-- gradcheck input { [1.0, 2.0, 0.5, -1.0, 3.0, 0.25] [0.5, -0.25, 1.0] }
entry conv1d [n][k] (xs: [n]f64) (ws: [k]f64) : [n]f64 =
  tabulate n (\i -> f64.sum (tabulate k (\j -> let t = i + j - k / 2 in if t >= 0 && t < n then xs[t] * ws[j] else 0)))

-- ==
-- entry: deep_nest
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0]] [[0.3, 0.2, 0.1], [1.0, -1.0, 0.5]] [0.5, 1.5, 2.5] }
entry deep_nest [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (c: [p]f64) : [n][p]f64 =
  map (\r -> map (\j -> f64.sum (map (\k -> r[k] * b[k, j] * c[j] + f64.sin (b[k, j] * r[k])) (iota m))) (iota p)) a

-- ==
-- entry: rbi_rows
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25], [1.5, 1.5]] [1i64, 0i64, 1i64, 3i64] }
entry rbi_rows [n][d] (xs: [n][d]f64) (is: [n]i64) : [2][d]f64 =
  reduce_by_index (replicate 2 (replicate d 1)) (map2 (*)) (replicate d 1) is xs

-- ==
-- entry: scatter_loop
-- gradcheck input { [1.0, 2.0, 0.5, -1.0] [0.5, 0.25] }
entry scatter_loop [n][k] (xs: [n]f64) (vs: [k]f64) : [n]f64 =
  loop ys = copy xs for i < 3 do
    let is = map (\j -> (i + j * 2) % n) (iota k)
    in scatter ys is (map2 (\v j -> v * ys[(i + j * 2) % n] + 1) vs (iota k))

-- ==
-- entry: match_arrays
-- gradcheck input { [1.0, 2.0, 0.5] 1i32 }
entry match_arrays [n] (xs: [n]f64) (mode: i32) : [n]f64 =
  match mode
  case 0 -> map (* 2) xs
  case 1 -> map2 (*) xs (reverse xs)
  case _ -> scan (+) 0 xs

-- ==
-- entry: f32_sums
-- gradcheck input { [[1.0f32, 2.0f32], [0.5f32, -1.0f32], [3.0f32, 0.25f32]] }
entry f32_sums [n][m] (x: [n][m]f32) : f32 =
  f32.sum (map (\r -> f32.sum r * f32.sum r) (transpose x)) / f32.i64 n

-- ==
-- entry: tuple_out
-- gradcheck input { [1.0, 2.0, 0.5] }
entry tuple_out [n] (xs: [n]f64) : (f64, i64, [n]f64, bool) =
  (f64.sum xs * xs[0], n, map f64.exp xs, xs[0] > 0)

-- ==
-- entry: transposes
-- gradcheck input { [[1.0, 2.0, 3.0], [0.5, -1.0, 0.25]] }
entry transposes [n][m] (x: [n][m]f64) : [n][m]f64 =
  transpose (map (\c -> scan (+) 0 (map (\v -> v * c[0]) c)) (transpose x))

-- ==
-- entry: minmax_mix
-- gradcheck input { [1.0, 2.5, 0.5, -1.0, 3.25] }
entry minmax_mix [n] (xs: [n]f64) : (f64, f64, [n]f64) =
  (f64.maximum xs * f64.minimum xs, reduce f64.max f64.lowest (map f64.sin xs), map2 f64.max xs (rotate 1 xs))

-- ==
-- entry: gd_steps
-- gradcheck input { [0.5, -0.25] [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] [1.0, 0.0, 2.0] }
entry gd_steps [n][d] (w0: [d]f64) (xs: [n][d]f64) (ys: [n]f64) : [d]f64 =
  let loss w = f64.sum (map2 (\x y -> let e = f64.sum (map2 (*) w x) - y in e * e) xs ys) / f64.i64 n
  in loop w = w0 for _i < 4 do
       let g = vjp loss w 1
       in map2 (\a b -> a - 0.05 * b) w g

-- ==
-- entry: cumulative_hist
-- gradcheck input { [0.1, 0.6, 0.35, 0.9, 0.55] [1.0, 2.0, 0.5, -1.0, 3.0] }
entry cumulative_hist [n] (pos: [n]f64) (ws: [n]f64) : [4]f64 =
  let bins = map (\p -> i64.f64 (p * 4)) pos
  let h = hist (+) 0 4 bins (map2 (\w p -> w * p) ws pos)
  in scan (+) 0 h

-- ==
-- entry: newton_in_map
-- gradcheck input { [2.0, 9.0, 0.5] [1.0, 2.0, 3.0] }
entry newton_in_map [n] (xs: [n]f64) (ws: [n]f64) : f64 =
  f64.sum (map2 (\x w -> let y = loop y = x while f64.abs (y * y * y - x) > 1e-12 * x do y - (y * y * y - x) / (3 * y * y)
                         in y * w) xs ws)

-- ==
-- entry: row_scan_max
-- gradcheck input { [[1.0, 2.0], [0.5, 3.0], [3.0, 0.25], [1.5, 1.75]] }
entry row_scan_max [n][d] (xs: [n][d]f64) : [n][d]f64 =
  scan (map2 f64.max) (replicate d f64.lowest) (map (map (\v -> v * v + v)) xs)

-- ==
-- entry: row_reduce_mul
-- gradcheck input { [[1.0, 2.0], [0.5, 3.0], [3.0, 0.25], [1.5, 1.75]] }
entry row_reduce_mul [n][d] (xs: [n][d]f64) : [d]f64 =
  reduce (map2 (*)) (replicate d 1) xs

-- ==
-- entry: hist_rows_max
-- gradcheck input { [[1.0, 2.0], [0.5, 3.0], [3.0, 0.25], [1.5, 1.75]] [0i64, 1i64, 1i64, 0i64] }
entry hist_rows_max [n][d] (xs: [n][d]f64) (is: [n]i64) : [2][d]f64 =
  hist (map2 f64.max) (replicate d f64.lowest) 2 is (map (map f64.sin) xs)

-- ==
-- entry: rbi_mul_zero
-- gradcheck input { [1.0, 0.0, 3.0, 0.5, 0.0, 2.0] [0i64, 0i64, 1i64, 1i64, 2i64, 2i64] }
entry rbi_mul_zero [n] (xs: [n]f64) (is: [n]i64) : [3]f64 =
  reduce_by_index (replicate 3 1) (*) 1 is (map (\x -> x * 2) xs)

-- ==
-- entry: grid
-- gradcheck input { [1.0, 2.0, 0.5] [0.5, -1.0] }
entry grid [n][m] (xs: [n]f64) (ys: [m]f64) : [m][n]f64 =
  let g = tabulate_2d n m (\i j -> xs[i] * ys[j] + f64.cos (xs[i] - ys[j]))
  let f = flatten g
  let u = unflatten (sized (m * n) (reverse f)) :> [m][n]f64
  in u

def custom_sq (x: f64) : f64 = with_vjp_tape (\x -> (x, x * x)) (\(x, r) -> 2 * x * r) x

-- ==
-- entry: custom_in_map
-- input { [1.0, 2.0, -3.0] }
-- output { [2.0, 4.0, -6.0] }
entry custom_in_map [n] (xs: [n]f64) : [n]f64 =
  vjp (\xs -> f64.sum (map custom_sq xs)) xs 1

-- ==
-- entry: free_acc_loop
-- gradcheck input { [1.0, 2.0, 0.5, 1.5] [[0i64, 1i64], [2i64, 3i64], [1i64, 1i64]] }
entry free_acc_loop [n][m] (table: [n]f64) (idx: [m][2]i64) : [m]f64 =
  map (\is -> loop acc = 0 for k < 3 do acc * table[is[k % 2]] + table[(is[0] + k) % n] * f64.f64 (f64.i64 k + 1)) idx

-- ==
-- entry: lstm_like
-- gradcheck input { [[0.5, -0.2], [0.1, 0.3], [-0.4, 0.6]] [0.1, 0.2] [[1.0, 0.5], [0.2, -0.3]] }
entry lstm_like [t][h] (xs: [t][h]f64) (h0: [h]f64) (w: [h][h]f64) : f64 =
  let (hs, c) = loop (hs, c) = (h0, replicate h 0) for x in xs do
    let z = map2 (+) x (map (\r -> f64.sum (map2 (*) r hs)) w)
    let c' = map2 (\ci zi -> ci * 0.5 + f64.tanh zi) c z
    in (map f64.tanh c', c')
  in f64.sum hs + f64.sum c

-- ==
-- entry: pairwise
-- gradcheck input { [[0.0, 1.0], [1.0, 0.5], [2.0, -1.0], [-0.5, 0.25]] }
entry pairwise [n][d] (ps: [n][d]f64) : f64 =
  f64.sum (map (\p -> f64.sum (map (\q -> let dd = f64.sum (map2 (\a b -> (a - b) * (a - b)) p q) in 1 / f64.sqrt (dd + 0.1)) ps)) ps)

-- ==
-- entry: softplus_loss
-- gradcheck input { [0.5, -0.25, 1.0] [[1.0, 2.0, 0.5], [0.5, -1.0, 2.0], [1.5, 0.5, -0.5]] [1.0, 0.0, 1.0] }
entry softplus_loss [n][d] (w: [d]f64) (xs: [n][d]f64) (ys: [n]f64) : f64 =
  let logits = map (\x -> f64.sum (map2 (*) w x)) xs
  in f64.sum (map2 (\z y -> f64.log1p (f64.exp z) - y * z) logits ys) + 0.01 * f64.sum (map (\a -> a * a) w)

-- ==
-- entry: horner_rows
-- gradcheck input { [[1.0, -2.0, 0.5], [0.5, 1.0, 2.0]] [0.5, 1.5, -1.0] }
entry horner_rows [n][k][m] (cs: [n][k]f64) (xs: [m]f64) : [n][m]f64 =
  map (\c -> map (\x -> foldl (\acc a -> acc * x + a) 0 c) xs) cs

-- ==
-- entry: sorted_hist
-- gradcheck input { [3.0, 1.0, 2.0, 5.0, 4.0] }
entry sorted_hist [n] (xs: [n]f64) : [n]f64 =
  -- rank of each element by counting, then scatter to sorted positions
  let ranks = map (\x -> i64.sum (map (\y -> i64.bool (y < x)) xs)) xs
  in scatter (replicate n 0) ranks (map (\x -> x * x) xs)

-- ==
-- entry: running_max_pool
-- gradcheck input { [1.0, 3.0, 2.0, 5.0, 4.0, 0.5] }
entry running_max_pool [n] (xs: [n]f64) : [n]f64 =
  tabulate n (\i -> f64.maximum (map (\j -> if j >= 0 && j < n then xs[j] else f64.lowest) (map (+ (i - 1)) (iota 3))))

-- ==
-- entry: big_tuple_reduce
-- gradcheck input { [1.0, 3.0, 2.0, 5.0] [0.5, 0.25, 1.5, 2.0] }
entry big_tuple_reduce [n] (xs: [n]f64) (ys: [n]f64) : (f64, f64, f64) =
  reduce (\(a, b, c) (d, e, f) -> (a + d, b * e, f64.max c f)) (0, 1, f64.lowest) (zip3 xs ys (map2 (*) xs ys))
