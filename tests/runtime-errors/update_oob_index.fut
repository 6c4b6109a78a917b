-- An in-place update at a run-time index, in and out of range.
-- ==
-- input { [1, 2, 3] 2i64 } output { [1, 2, 0] }
-- input { [1, 2, 3] 3i64 } error: out of bounds
def main (xs: *[]i32) (i: i64) = xs with [i] = 0
