-- An index out of bounds is a run-time error, not a crash.
-- ==
-- input { [1, 2, 3] 3i64 } error: out of bounds
def main (xs: []i32) (i: i64) = xs[i]
