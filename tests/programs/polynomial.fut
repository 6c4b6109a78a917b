-- Polynomial evaluation two ways: Horner's rule with foldr, and map/reduce over powers.
-- Coefficients are given lowest degree first: 3 - 2x + 0.5x^2 + x^3.
-- ==
-- input { [3.0, -2.0, 0.5, 1.0] [0.0, 1.0, 2.0, -1.5] }
-- output { [3.0, 2.5, 9.0, 3.75] [3.0, 2.5, 9.0, 3.75] }
def horner [k] (cs: [k]f64) (x: f64) : f64 = foldr (\c acc -> c + x * acc) 0 cs

def powers [k] (cs: [k]f64) (x: f64) : f64 =
  f64.sum (map2 (\c i -> c * x ** f64.i64 i) cs (iota k))

def main (cs: []f64) (xs: []f64) = (map (horner cs) xs, map (powers cs) xs)
