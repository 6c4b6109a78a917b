-- The size of `ys` is inferred to be `k`, a later parameter, which is not
-- in scope when `ys` is introduced.
-- ==
-- error: scope-violation

def pairs ys k = map2 (\y i -> (y + i, i)) ys (iota k)

def main (xs: []i64) = pairs xs (length xs)
