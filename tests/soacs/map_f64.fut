-- map over f64 values.
-- ==
-- input { [1.0, 2.5, -4.0] } output { [0.5, 1.25, -2.0] }
-- input { empty([0]f64) } output { empty([0]f64) }
def main (xs: []f64) = map (\x -> x * 0.5) xs
