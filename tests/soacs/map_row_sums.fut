-- map of a reduction: row sums of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [-1, -1, -1]] } output { [6, 15, -3] }
-- input { empty([2][0]i32) } output { [0, 0] }
def main (xss: [][]i32) = map (\xs -> reduce (+) 0 xs) xss
