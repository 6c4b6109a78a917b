-- Updating a consuming (*) parameter in place.
-- ==
-- input { [1, 2, 3] 0i64 } output { [9, 2, 3] }
-- input { [1, 2, 3] 2i64 } output { [1, 2, 9] }
def main (xs: *[]i32) (i: i64) = xs with [i] = 9
