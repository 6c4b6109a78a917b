-- A return type of size n taken from a parameter.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
def squares (n: i64) : [n]i64 = map (\i -> i * i) (iota n)
def main (n: i64) = squares n
