-- Equality on arrays of floats uses float equality, so arrays containing NaN are unequal.
-- ==
-- input { [1.0, 2.0] [1.0, 2.0] } output { true }
-- input { [1.0, f64.nan] [1.0, f64.nan] } output { false }
def main (xs: []f64) (ys: []f64) = xs == ys
