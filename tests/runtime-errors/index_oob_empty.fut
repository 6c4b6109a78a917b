-- Indexing an empty array always fails.
-- ==
-- input { empty([0]f64) 0i64 } error: out of bounds
def main (xs: []f64) (i: i64) = xs[i]
