-- hist summing values into bins.
-- ==
-- input { [2i64, 0i64, 2i64, 1i64] [1.5, 2.0, 3.0, -1.0] } output { [2.0, -1.0, 4.5] }
def main [n] (is: [n]i64) (vs: [n]f64) = hist (+) 0.0 3 is vs
