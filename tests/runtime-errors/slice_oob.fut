-- A slice extending past the end of the array fails at run time.
-- ==
-- input { [1, 2, 3] 1i64 3i64 } output { [2, 3] }
-- input { [1, 2, 3] 1i64 4i64 } error: .
-- input { [1, 2, 3] 2i64 1i64 } error: .
def main (xs: []i32) (i: i64) (j: i64) = xs[i:j]
