-- Reverse mode handles scans of tuples of scalars with any operator
-- (floats of several types carried in the widest; integers and booleans
-- beside them steer the operator), and scans of rows with a vectorised
-- operator (`map2 op`), not yet scans of rows with any other operator
-- (the adjoint recurrence is built on scalar components): differentiating
-- one is an error naming the construct, not a wrong adjoint.
-- ==
-- error: not-supported-yet
def main [n] (xss: [n][2]f64) =
  vjp (scan (\a b -> [a[0] * b[0], a[1] * b[0] + b[1]]) [1, 0]) xss (copy xss)
