-- jvp (automatic differentiation) is outside the supported core language.
-- ==
-- error: not-supported-yet
def main (x: f64) = jvp (\y -> y * y) x 1.0
