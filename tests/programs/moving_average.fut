-- Moving average with window w via prefix sums (the window sums are differences of a scan).
-- ==
-- input { 3i64 [1.0, 2.0, 3.0, 4.0, 10.0] } output { [2.0, 3.0, 5.666666666666667] }
-- input { 1i64 [1.0, 2.0] } output { [1.0, 2.0] }
def main [n] (w: i64) (xs: [n]f64) =
  let ps = [0.0] ++ scan (+) 0 xs
  in tabulate (n - w + 1) (\i -> (ps[i + w] - ps[i]) / f64.i64 w)
