-- Dense linear algebra in the usual Futhark style: matrix multiplication
-- with nested maps and a reduce inside, a Jacobi-style stencil with
-- rotate, an argmax reduction with a tuple operator, and iterate.
-- ==
-- input { [[1f64, 2f64], [3f64, 4f64]] [[5f64, 6f64], [7f64, 8f64]] [1f64, 5f64, 2f64, 8f64, 3f64] }
-- output { [[19f64, 22f64], [43f64, 50f64]] [3f64, 2.666666666666667f64, 5f64, 4.333333333333333f64, 4f64] 3i64 8f64 16f64 }

def dotprod [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map2 (*) xs ys)

def matmul [n] [m] [p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\row -> map (\col -> dotprod row col) (transpose b)) a

def smooth [n] (xs: [n]f64) : [n]f64 =
  map3 (\l c r -> (l + c + r) / 3) (rotate (-1) xs) xs (rotate 1 xs)

def argmax [n] (xs: [n]f64) : (i64, f64) =
  reduce (\(i, x) (j, y) -> if x > y || (x == y && i < j) then (i, x) else (j, y))
         (-1, -f64.inf)
         (zip (iota n) xs)

def main [n] (a: [2][2]f64) (b: [2][2]f64) (v: [n]f64) =
  let (i, x) = argmax v
  in (matmul a b, smooth v, i, x, iterate 4 (* 2) 1f64)
