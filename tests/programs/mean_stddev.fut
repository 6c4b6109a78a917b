-- Mean and (population) standard deviation.
-- ==
-- input { [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] } output { 5.0 2.0 }
-- input { [3.0] } output { 3.0 0.0 }
def main [n] (xs: [n]f64) =
  let mean = f64.sum xs / f64.i64 n
  let var = f64.sum (map (\x -> (x - mean) ** 2) xs) / f64.i64 n
  in (mean, f64.sqrt var)
