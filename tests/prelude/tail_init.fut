-- tail drops the first element, init the last.
-- ==
-- input { [1, 2, 3, 4] } output { [2, 3, 4] [1, 2, 3] }
-- input { [1] } output { empty([0]i32) empty([0]i32) }
def main (xs: []i32) = (tail xs, init xs)
