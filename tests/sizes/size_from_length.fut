-- Using a size to build a new array of the same length.
-- ==
-- input { [1.0, 2.0, 3.0] } output { [0.0, 1.0, 2.0] }
def main [n] (xs: [n]f64) : [n]f64 = map2 (\x i -> x * 0 + f64.i64 i) xs (iota n)
