-- while loop over floats: halve until below a threshold.
-- ==
-- input { 100.0 } output { 0.78125 7 }
def main (x: f64) =
  loop (v, k) = (x, 0) while v >= 1.0 do (v / 2.0, k + 1)
