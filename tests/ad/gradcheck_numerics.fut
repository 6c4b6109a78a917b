-- Programs written as a user would, without looking at how ogham
-- differentiates them, checked against mathematics by the harness
-- (`gradcheck`: jvp against central finite differences, and vjp against
-- jvp by the dot-product identity, on every backend). Numerical kernels: a
-- small network, Newton iterations, elimination, sum types, reshapes,
-- products with zeros, gathers and the elementary functions.

-- ==
-- entry: mlp
-- gradcheck input { [[0.1f32, -0.2f32, 0.3f32], [0.5f32, 0.4f32, -0.1f32]] [0.1f32, 0.2f32] [[0.3f32, -0.7f32], [0.2f32, 0.9f32], [-0.4f32, 0.1f32]] [1.0f32, -2.0f32, 0.5f32] }
entry mlp [h][i][o] (w1: [h][i]f32) (b1: [h]f32) (w2: [o][h]f32) (x: [i]f32) : f32 =
  let a = map2 (\r b -> f32.max 0 (f32.sum (map2 (*) r x) + b)) w1 b1
  let z = map (\r -> f32.sum (map2 (*) r a)) w2
  let m = f32.maximum z
  let lse = m + f32.log (f32.sum (map (\v -> f32.exp (v - m)) z))
  in lse - z[0]

-- ==
-- entry: newton_sqrt
-- gradcheck input { [2.0, 9.0, 0.5] }
entry newton_sqrt [n] (xs: [n]f64) : [n]f64 =
  map (\x -> let (y, _) = loop (y, k) = (x, 0i32) while k < 30 && f64.abs (y * y - x) > 1e-300 do ((y + x / y) / 2, k + 1) in y) xs

-- ==
-- entry: argmax_val
-- gradcheck input { [0.3, 2.5, -1.0, 1.7] }
entry argmax_val [n] (xs: [n]f64) : f64 =
  let (v, i) = reduce (\(a, i) (b, j) -> if a > b || (a == b && i < j) then (a, i) else (b, j)) (f64.lowest, -1) (zip (map (\x -> x * x) xs) (iota n))
  in v * f64.i64 i

-- ==
-- entry: hist_min
-- gradcheck input { [0i64, 1i64, 5i64, 1i64, -1i64, 2i64] [3.0, 1.0, 7.0, 0.5, 2.0, -4.0] [10.0, 10.0, 10.0] }
entry hist_min [n][k] (is: [n]i64) (vs: [n]f64) (init: [k]f64) : [k]f64 =
  reduce_by_index (copy init) f64.min f64.inf is (map (\v -> v * 1.5 + f64.sin v) vs)

-- ==
-- entry: per_example
-- gradcheck input { [1.0, -0.5] [[0.2, 0.3], [1.0, -1.0], [0.5, 0.5]] }
entry per_example [d][n] (w: [d]f64) (xs: [n][d]f64) : [n][d]f64 =
  map (\x -> vjp (\w -> f64.tanh (f64.sum (map2 (*) w x))) w 1) xs

-- ==
-- entry: hvp
-- gradcheck input { [0.5, -0.3, 0.8] [1.0, 0.0, -1.0] }
entry hvp [n] (x: [n]f64) (v: [n]f64) : [n]f64 =
  let f x = f64.sum (map (\a -> a * a * a) x) * f64.exp (x[0] * x[1])
  in jvp (\x -> vjp f x 1) x v

-- ==
-- entry: gauss_jordan
-- gradcheck input { [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]] [1.0, 2.0, 3.0] }
entry gauss_jordan [n] (a: [n][n]f64) (b: [n]f64) : [n]f64 =
  let aug = map2 (\r x -> r ++ [x]) a b
  let aug = loop aug = copy aug for k < n do
    let p = aug[k, k]
    let row = map (/ p) aug[k]
    in map2 (\i r -> if i == k then row else map2 (\x y -> x - r[k] * y) r row) (iota n) aug
  in map (\r -> r[n]) aug

type shape = #circle f64 | #rect f64 f64
-- ==
-- entry: shapes
-- gradcheck input { [0i32, 1i32, 0i32] [1.0, 2.0, 0.5] [3.0, 0.5, 1.0] }
entry shapes [n] (tags: [n]i32) (a: [n]f64) (b: [n]f64) : f64 =
  let ss = map3 (\t x y -> if t == 0 then #circle x else #rect x y) tags a b : [n]shape
  in f64.sum (map (\s -> match s case #circle r -> f64.pi * r * r case #rect w h -> w * h) ss)

-- ==
-- entry: reshapes
-- gradcheck input { [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] }
entry reshapes [n][m] (x: [n][m]f64) : ([m][n]f64, [3]f64) =
  let t = transpose x
  let f = flatten t
  let r = reverse f
  let g = rotate 2 r
  let u = unflatten (sized (m * n) g) :> [m][n]f64
  let s = map (\r -> map (* 2) r) u
  in (s, map f64.exp (take 3 (drop 1 f)))

-- ==
-- entry: scan_mul
-- gradcheck input { [0.5, 2.0, -1.5, 0.0, 3.0] }
entry scan_mul [n] (xs: [n]f64) : [n]f64 =
  scan (*) 1 xs

-- ==
-- entry: prod_zero
-- gradcheck input { [0.5, 2.0, 0.0, 1.5, 3.0] }
entry prod_zero [n] (xs: [n]f64) : f64 =
  f64.product xs + reduce (*) 1 (map (\x -> x + 1) xs)

-- ==
-- entry: gather
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [3i64, 0i64, 3i64, 1i64, 1i64] }
entry gather [n][m] (xs: [n]f64) (is: [m]i64) : [m]f64 =
  map (\i -> xs[i] * xs[(i + 1) % n]) is

-- ==
-- entry: elementary
-- gradcheck input { [0.3, 1.2, 2.5] [0.7, -0.4, 1.1] }
entry elementary [n] (xs: [n]f64) (ys: [n]f64) : [n]f64 =
  map2 (\x y -> f64.atan2 y x + f64.hypot x y + x ** y + f64.log1p x + f64.erf y + f64.cbrt x
               + f64.lgamma x + f64.asinh y + f64.acosh (x + 1) + f64.atanh (y / 2) + f64.sinh y + f64.cosh x
               + f64.asin (y / 2) + f64.acos (y / 3) + f64.tan x + f64.log2 x + f64.log10 x
               + f64.erfc y + f64.gamma x + f64.copysign x y + f64.fma x y x + f64.lerp x y 0.3) xs ys
