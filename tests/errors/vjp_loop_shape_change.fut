-- Reverse mode saves a loop's carried arrays once per iteration, so their
-- shape must not change; where it visibly does (constant sizes), that is
-- a compile-time error at the loop.
-- ==
-- error: loop-shape-change
def main (x: f64) =
  vjp (\x -> f64.sum (loop (xs: []f64) = [x] for i < 2 do [xs[0] * x, x])) x 1
