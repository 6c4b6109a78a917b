-- indices gives the valid indices of any array.
-- ==
-- input { [7.0, 8.0, 9.0] } output { [0i64, 1i64, 2i64] }
-- input { empty([0]f64) } output { empty([0]i64) }
def main (xs: []f64) = indices xs
