-- A loop under `vjp` whose carried array grows by a number of elements
-- known only at run time (i + 1 in iteration i): the check is made then,
-- and fails with a located error instead of saving iterations of
-- different shapes in one array. (Growing by a constant, `xs ++ [x]`, is
-- a compile-time error: tests/errors/vjp_loop_grows_by_constant.fut.)
-- ==
-- input { 2.0 0i64 } output { 1.0 }
-- input { 2.0 2i64 } error: changed the shape
def main (x: f64) (k: i64) =
  vjp (\x -> f64.sum (loop xs = [x] for i < k do xs ++ replicate (i + 1) x)) x 1
