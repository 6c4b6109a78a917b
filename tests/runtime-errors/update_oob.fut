-- An out-of-range in-place update is a run-time error.
-- ==
-- input { [1, 2, 3] } error: out of bounds
def main (xs: *[]i32) = xs with [10] = 0
