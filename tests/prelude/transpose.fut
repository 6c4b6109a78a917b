-- transpose of non-square and degenerate matrices.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 4], [2, 5], [3, 6]] }
-- input { [[1, 2, 3]] } output { [[1], [2], [3]] }
-- input { empty([0][3]i32) } output { empty([3][0]i32) }
def main (xss: [][]i32) = transpose xss
