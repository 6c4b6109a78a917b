-- && does not evaluate its right operand when the left is false, so the
-- out-of-bounds index is never performed.
-- ==
-- input { [1, 2, 3] 5i64 } output { false }
-- input { [1, 2, 3] 1i64 } output { true }
def main (xs: []i32) (i: i64) = i < length xs && xs[i] == 2
