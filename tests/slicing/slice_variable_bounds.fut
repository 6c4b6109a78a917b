-- Slice bounds given by i64 variables.
-- ==
-- input { [10, 20, 30, 40, 50, 60] 2i64 5i64 } output { [30, 40, 50] }
-- input { [10, 20, 30, 40, 50, 60] 3i64 3i64 } output { empty([0]i32) }
def main (a: []i32) (i: i64) (j: i64) = a[i:j]
