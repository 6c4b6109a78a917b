-- Reverse mode handles scans of tuples of scalars of one type with any
-- operator, not yet tuples mixing types (the adjoint recurrence needs one
-- matrix type): differentiating one is an error naming the construct,
-- not a wrong adjoint.
-- ==
-- error: not-supported-yet
def main [n] (xs: [n]f64) (is: [n]i64) =
  vjp (\xs -> (unzip (scan (\(a, i) (b, j) -> (a * b, i + j)) (1, 0) (zip xs is))).0) xs (copy xs)
