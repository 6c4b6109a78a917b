-- Indexing past the end, and with a negative index, fails at run time.
-- ==
-- input { [1, 2, 3] 1i64 } output { 2 }
-- input { [1, 2, 3] 3i64 } error: out of bounds
-- input { [1, 2, 3] -1i64 } error: out of bounds
def main (xs: []i32) (i: i64) = xs[i]
