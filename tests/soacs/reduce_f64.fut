-- Sum of f64 values with reduce.
-- ==
-- input { [0.5, 0.25, 0.125, 1.0] } output { 1.875 }
-- input { empty([0]f64) } output { 0.0 }
def main (xs: []f64) = reduce (+) 0.0 xs
