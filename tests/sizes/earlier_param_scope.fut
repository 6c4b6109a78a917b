-- A parameter's size may be an earlier parameter.
-- ==
-- input { 3i64 [10i64, 20i64, 30i64] } output { [10i64, 21i64, 32i64] }

def pairs k ys = map2 (+) ys (iota k)

def main (k: i64) (xs: [k]i64) = pairs k xs
