-- Reverse mode handles scans of scalars with any operator and scan (+)
-- on tuples, not yet other scans of tuples: differentiating one is an
-- error naming the construct, not a wrong adjoint.
-- ==
-- error: not-supported-yet
def main (xs: []f64) =
  vjp (\xs -> unzip (scan (\(a, b) (c, d) -> (a * c, b * d)) (1, 1) (zip xs xs))) xs (copy xs, copy xs)
