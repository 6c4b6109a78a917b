-- The adjoint of a gather of rows, `map (\i -> map (* 2) xs[i]) is`:
-- reverse mode makes a withacc over the gathered rows whose function is a
-- nested withacc adding each element of the row's cotangent, doubled,
-- into the adjoint; the compiled backends run it as one kernel (the
-- nested loop inside), or, when the adjoint is large next to the work,
-- on the multicore backend with atomic updates statement by statement.
-- Checked through the sum of the adjoint, its sum weighted by (r+1)(j+1)
-- and its last element; the cotangent is ((i * j + i) mod 5), row i of
-- the gather is (i * 7919) mod k. Expected values from a Python loop.
-- ==
-- input { 200000i64 1000i64 16i64 } output { 10400000.0 42482000000.0 400.0 }
-- input { 50000i64 200000i64 3i64 } output { 600000.0 119979100000.0 0.0 }
-- input { 7i64 3i64 2i64 } output { 46.0 150.0 10.0 }
-- input { 0i64 4i64 5i64 } output { 0.0 0.0 0.0 }

def main (n: i64) (k: i64) (d: i64) : (f64, f64, f64) =
  let xs = tabulate_2d k d (\i j -> f64.i64 (i + j))
  let is = map (\i -> (i * 7919) % k) (iota n)
  let ct = tabulate_2d n d (\i j -> f64.i64 ((i * j + i) % 5))
  let g = vjp (\xs -> map (\i -> map (* 2) xs[i]) is) xs ct
  in ( f64.sum (map f64.sum g)
     , f64.sum (map2 (\r row -> f64.sum (map2 (\j x -> f64.i64 ((r + 1) * (j + 1)) * x) (iota d) row)) (iota k) g)
     , if k > 0 && d > 0 then g[k - 1, d - 1] else 0 )
