-- length and null.
-- ==
-- input { [1, 2, 3] } output { 3i64 false }
-- input { empty([0]i32) } output { 0i64 true }
def main (xs: []i32) = (length xs, null xs)
