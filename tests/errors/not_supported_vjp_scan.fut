-- Reverse mode handles scans of tuples of scalars of one floating-point
-- type with any operator (integers and booleans beside them steer the
-- operator), not yet tuples mixing floating-point types (the adjoint
-- recurrence needs one matrix type): differentiating one is an error
-- naming the construct, not a wrong adjoint.
-- ==
-- error: not-supported-yet
def main [n] (xs: [n]f64) =
  vjp (\xs -> (unzip (scan (\(a, c) (b, d) -> (a * b, c * d)) (1, 1) (zip xs (map f32.f64 xs)))).0) xs (copy xs)
