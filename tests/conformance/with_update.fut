-- In-place updates with an index expression on the right.
-- ==
-- input { [1, 2, 3, 4] 2i64 } output { [1, 2, 30, 4] }
def f (x: i32) = x * 10
def main (xs: *[]i32) (i: i64) = xs with [i] = f (xs[i])
