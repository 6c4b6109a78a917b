-- Matrix multiplication the way users write it.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] }
-- output { [[19.0, 22.0], [43.0, 50.0]] }
def dotprod [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map2 (*) xs ys)
def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (dotprod row) (transpose b)) a
def main [n][m][p] (a: [n][m]f64) (b: [m][p]f64) = matmul a b
