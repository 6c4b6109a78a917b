-- Reversing an array with scatter into a fresh destination.
-- ==
-- input { [1.5, 2.5, 3.5, 4.5] } output { [4.5, 3.5, 2.5, 1.5] }
-- input { empty([0]f64) } output { empty([0]f64) }
def main [n] (xs: [n]f64) =
  scatter (replicate n 0.0) (map (\i -> n - 1 - i) (iota n)) xs
