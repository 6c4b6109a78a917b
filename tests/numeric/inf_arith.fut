-- Arithmetic on infinities: inf - inf is NaN, inf * 0 is NaN, 1 / inf is 0.
-- ==
-- input { } output { f64.nan f64.nan 0.0 f64.inf -f64.inf }
def main =
  (f64.inf - f64.inf, f64.inf * 0, 1 / f64.inf, f64.inf + 1e308, -f64.inf * 2)
