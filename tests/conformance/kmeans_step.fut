-- One k-means assignment + update step on 1-d points.
-- ==
-- input { [1.0, 2.0, 10.0, 12.0, 11.0] [0.0, 19.0] }
-- output { [0i64, 0i64, 1i64, 1i64, 1i64] [1.5, 11.0] }
def closest [k] (cs: [k]f64) (p: f64) : i64 =
  let (_, i) = reduce_comm (\(d1, i1) (d2, i2) ->
                              if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2))
                           (f64.inf, -1)
                           (zip (map (\c -> f64.abs (c - p)) cs) (iota k))
  in i
def main [n][k] (ps: [n]f64) (cs: [k]f64) =
  let assign = map (closest cs) ps
  let sums = hist (+) 0 k assign ps
  let counts = hist (+) 0 k assign (replicate n 1f64)
  in (assign, map2 (/) sums counts)
