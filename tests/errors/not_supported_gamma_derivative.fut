-- The derivative of gamma needs the digamma function, which ogham does
-- not have yet: differentiating it is an error, not a wrong tangent.
-- ==
-- error: not-supported-yet
def main (x: f64) = jvp f64.gamma x 1.0
