-- from_bits (to_bits x) == x for ordinary values; to_bits distinguishes -0.0 from 0.0.
-- ==
-- input { [1.5, -0.0, 0.0, 1e-300] } output { [1.5, -0.0, 0.0, 1e-300] [false, true, false, false] }
def main (xs: []f64) =
  (map (f64.to_bits >-> f64.from_bits) xs, map (\x -> f64.to_bits x == 0x8000000000000000) xs)
