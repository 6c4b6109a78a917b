-- A slice update whose value has the wrong length fails at run time.
-- ==
-- input { [1, 2, 3, 4] 1i64 3i64 } output { [1, 7, 8, 4] }
-- input { [1, 2, 3, 4] 1i64 4i64 } error: .
def main (xs: *[]i32) (i: i64) (j: i64) = xs with [i:j] = [7, 8]
