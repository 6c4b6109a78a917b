-- One k-means step: assign each point to its nearest centroid (ties to the lower index),
-- then recompute the centroids with reduce_by_index. Also returns the assignment and counts.
-- ==
-- input { [[1.0, 1.0], [1.5, 2.0], [2.5, 4.0], [5.0, 7.0], [3.5, 5.0], [4.5, 5.0], [3.5, 4.5]]
--         [[1.0, 1.0], [5.0, 7.0]] }
-- output { [0i64, 0i64, 0i64, 1i64, 1i64, 1i64, 1i64]
--          [[1.6666666666666667, 2.3333333333333335], [4.125, 5.375]]
--          [3i64, 4i64] }
def dist2 [d] (a: [d]f64) (b: [d]f64) : f64 = f64.sum (map2 (\x y -> (x - y) * (x - y)) a b)

def closest [k][d] (cs: [k][d]f64) (p: [d]f64) : i64 =
  let (_, i) =
    reduce (\(d1, i1) (d2, i2) ->
              if d1 < d2 || (d1 == d2 && i1 < i2) then (d1, i1) else (d2, i2))
           (f64.inf, k)
           (map2 (\c i -> (dist2 c p, i)) cs (iota k))
  in i

def main [n][k][d] (points: [n][d]f64) (cs: [k][d]f64) =
  let assign = map (closest cs) points
  let counts = hist (+) 0 k assign (replicate n 1i64)
  let sums = reduce_by_index (replicate k (replicate d 0.0)) (map2 (+)) (replicate d 0.0)
                             assign points
  let new = map2 (\s c -> map (/ f64.i64 c) s) sums counts
  in (assign, new, counts)
