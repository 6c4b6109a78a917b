-- abs, sgn and neg on floats.
-- ==
-- input { -2.5 } output { 2.5 -1.0 2.5 }
-- input { 0.0 } output { 0.0 0.0 -0.0 }
-- input { 7.25 } output { 7.25 1.0 -7.25 }
-- input { -f64.inf } output { f64.inf -1.0 f64.inf }
def main (x: f64) = (f64.abs x, f64.sgn x, f64.neg x)
