-- Matrix-vector product in f64.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]] [2.0, -1.0] } output { [0.0, 2.0, 2.0] }
-- input { empty([0][2]f64) [1.0, 1.0] } output { empty([0]f64) }
def main [n][m] (mat: [n][m]f64) (v: [m]f64) : [n]f64 =
  map (\row -> f64.sum (map2 (*) row v)) mat
