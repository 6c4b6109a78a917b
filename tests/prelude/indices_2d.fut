-- indices of a 2-d array refers to the outer dimension.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [0i64, 1i64] }
def main (xss: [][]i32) = indices xss
