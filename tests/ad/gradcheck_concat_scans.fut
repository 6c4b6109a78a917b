-- Programs written as a user would, checked against mathematics by the
-- harness (`gradcheck`: jvp against central finite differences, and vjp
-- against jvp by the dot-product identity, on every backend): a softmax
-- over a concatenation, a prefix product through a zero, a scan of rows
-- by a vectorised operator, and a histogram by max with an index out of
-- range.

-- ==
-- entry: softmax_concat
-- gradcheck input { [[0.5, -1.0], [2.0, 0.25]] [[1.5, 0.0]] }
entry softmax_concat [n][m][k] (xs: [n][m]f64) (ys: [k][m]f64) : f64 =
  let zs = concat xs ys
  let sm = map (\r -> let mx = f64.maximum r
                      let e = map (\x -> f64.exp (x - mx)) r
                      let s = f64.sum e
                      in map (/ s) e) zs
  in f64.sum (map2 (\r i -> r[i % m] * f64.i64 (i + 1)) sm (iota (n + k)))

-- ==
-- entry: cumprod_zero
-- gradcheck input { [1.5, 0.0, -2.0, 0.75, 3.0] }
entry cumprod_zero [n] (xs: [n]f64) : f64 =
  f64.sum (map2 (*) (scan (*) 1 xs) (map f64.i64 (iota n)))

-- ==
-- entry: rows_scan
-- gradcheck input { [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]] }
entry rows_scan [n][m] (xss: [n][m]f64) : f64 =
  let ys = scan (map2 (\a b -> a * b + b)) (replicate m 0) xss
  in f64.sum (map f64.sum ys)

-- ==
-- entry: hist_max
-- gradcheck input { [0i64, 2i64, 0i64, 1i64, 7i64] [1.5, -2.0, 3.0, 0.5, 9.0] }
entry hist_max [n] (is: [n]i64) (vs: [n]f64) : f64 =
  let h = hist f64.max f64.lowest 3 is (map (\v -> v * v) vs)
  in f64.sum (map2 (*) h [1, 2, 3])
