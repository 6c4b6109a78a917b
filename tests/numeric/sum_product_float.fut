-- Float sum, product, maximum, minimum; empty gives 0, 1, -inf, inf.
-- ==
-- input { [1.5, -2.0, 4.0] } output { 3.5 -12.0 4.0 -2.0 }
-- input { empty([0]f64) } output { 0.0 1.0 -f64.inf f64.inf }
def main (xs: []f64) = (f64.sum xs, f64.product xs, f64.maximum xs, f64.minimum xs)
