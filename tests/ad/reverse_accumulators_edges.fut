-- Accumulating reverse mode at the edges: empty maps, empty free arrays,
-- and an index out of bounds, which fails in the forward sweep with the
-- usual located error (the return sweep never sees it).

-- ==
-- entry: gather_vjp
-- input { empty([0]f64) empty([0]i64) empty([0]f64) } output { empty([0]f64) }
-- input { [1.0, 2.0] empty([0]i64) empty([0]f64) } output { [0.0, 0.0] }
entry gather_vjp [n][m] (xs: [m]f64) (is: [n]i64) (ys: [n]f64) = vjp (\xs -> map (\i -> xs[i] * xs[i]) is) xs ys
-- ==
-- entry: oob
-- input { [1.0, 2.0] [0i64, 5i64] [1.0, 1.0] } error: out of bounds
entry oob [n][m] (xs: [m]f64) (is: [n]i64) (ys: [n]f64) = vjp (\xs -> map (\i -> xs[i] * xs[i]) is) xs ys
-- ==
-- entry: nested_empty
-- input { empty([0][3]f64) [[1.0, 2.0, 3.0]] } output { [[0.0, 0.0, 0.0]] }
-- input { [[1.0, 2.0, 3.0]] empty([0][3]f64) } output { empty([0][3]f64) }
entry nested_empty [n][k][d] (ps: [n][d]f64) (cs: [k][d]f64) =
  vjp (\cs -> f64.sum (map (\p -> f64.sum (map (\c -> f64.sum (map2 (*) p c)) cs)) ps)) cs 1
