-- Both modes through a `hist_stream` whose operator is not one primitive
-- operator per value (an arg-max over pairs), which runs as a sequential
-- loop updating its arrays in place. The objective is the largest square
-- of each class of the index mod 2, the odd class counted twice: at
-- [3, 7, 1, 2] the squares are 9, 49, 1, 4, the largest 9 (at 0) and 49
-- (at 1), so 9 + 2·49 = 107, with gradient [2·3, 2·2·7, 0, 0] =
-- [6, 28, 0, 0] and, along [1, 1, 1, 1], tangent 34; at [0.5, -1.5, 2.5,
-- 1.25, -3] the squares are 0.25, 2.25, 6.25, 1.5625, 9: 9 + 2·2.25 = 13.5
-- (worked by hand).

def larger (a: f64, i: i64) (b: f64, j: i64) =
  if a < b then (b, j) else if b < a then (a, i) else if j < i then (b, j) else (a, i)

def objective [n] (xs: [n]f64) : f64 =
  let (m, _) =
    intrinsics.hist_stream (replicate 2 (f64.lowest, -1i64)) larger (f64.lowest, -1)
      (\(a: *intrinsics.acc ([](f64, i64))) (i: i64) -> intrinsics.acc_write a (i % 2) (xs[i] * xs[i], i))
      (indices xs)
    |> unzip
  in m[0] + 2 * m[1]

-- ==
-- entry: main
-- gradcheck input { [3.0, 7.0, 1.0, 2.0] }
-- output { 107.0 }
-- gradcheck input { [0.5, -1.5, 2.5, 1.25, -3.0] }
-- output { 13.5 }
entry main [n] (xs: [n]f64) : f64 = objective xs

-- ==
-- entry: gradient
-- input { [3.0, 7.0, 1.0, 2.0] }
-- output { [6.0, 28.0, 0.0, 0.0] }
entry gradient [n] (xs: [n]f64) : [n]f64 = vjp objective xs 1

-- ==
-- entry: tangent
-- input { [3.0, 7.0, 1.0, 2.0] }
-- output { 34.0 }
entry tangent [n] (xs: [n]f64) : f64 = jvp objective xs (replicate n 1)
