-- Prefix sums of f64 values.
-- ==
-- input { [0.5, 1.5, -1.0, 2.25] } output { [0.5, 2.0, 1.0, 3.25] }
def main (xs: []f64) = scan (+) 0 xs
