-- The same rule for a lambda's parameters.
-- ==
-- error: scope-violation

def main (k: i64) = (\ys m -> map2 (+) ys (iota m)) (iota k) k
