-- Numerical integration of 4 / (1 + x^2) over [0, 1] with the midpoint rule: approximates pi.
-- ==
-- input { 1000i64 } output { 3.1415927369231227 }
-- input { 1i64 } output { 3.2 }
def main (n: i64) =
  let h = 1 / f64.i64 n
  in h * f64.sum (map (\i -> let x = (f64.i64 i + 0.5) * h in 4 / (1 + x * x)) (iota n))
