-- reduce over a mapped large iota (sum of squares modulo 7, as i64).
-- ==
-- input { 100000i64 } output { 199999i64 }
def main (n: i64) = reduce (+) 0 (map (\i -> (i * i) % 7) (iota n))
