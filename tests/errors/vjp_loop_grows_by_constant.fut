-- A loop under `vjp` whose carried array grows by one element each
-- iteration, for a number of iterations known only at run time: the size
-- it returns is the size it started with plus 1, so its shape changes
-- whenever it runs, and that is a compile-time error at the loop.
-- ==
-- error: loop-shape-change
def main (x: f64) (k: i64) =
  vjp (\x -> f64.sum (loop xs = [x] for _i < k do xs ++ [x])) x 1
