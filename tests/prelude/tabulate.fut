-- tabulate n f = map f (iota n).
-- ==
-- input { 5i64 } output { [0i64, 1i64, 4i64, 9i64, 16i64] }
-- input { 0i64 } output { empty([0]i64) }
def main (n: i64) = tabulate n (\i -> i * i)
