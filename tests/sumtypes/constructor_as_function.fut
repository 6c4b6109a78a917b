-- A constructor applied inside a lambda passed to map.
-- ==
-- input { [1.5, 2.5] } output { [1.5, 2.5] }
type boxed = #box f64
def unbox (b: boxed) : f64 = match b case #box v -> v
def main (xs: []f64) = map unbox (map (\x -> #box x) xs)
