-- A top-level value shares the existential sizes of its own arrays, but a
-- function inside it (here a record field) computes a new one at each call:
-- the results of two calls of `box.run` may differ in size.
-- ==
-- error: size-mismatch

def box = {run = \(xs: []i64) -> filter (> 2) xs}

def main (xs: []i64) (ys: []i64) = map2 (+) (box.run xs) (box.run ys)
