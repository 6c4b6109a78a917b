-- A loop under `vjp` whose carried array grows each iteration: the sizes
-- are known only at run time, where the check fails with a located error
-- instead of saving iterations of different shapes in one array.
-- ==
-- input { 2.0 0i64 } output { 1.0 }
-- input { 2.0 2i64 } error: changed the shape
def main (x: f64) (k: i64) =
  vjp (\x -> f64.sum (loop xs = [x] for _i < k do xs ++ [x])) x 1
