-- flatten combines the outer two dimensions.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [1, 2, 3, 4, 5, 6] }
-- input { empty([0][3]i32) } output { empty([0]i32) }
-- input { empty([3][0]i32) } output { empty([0]i32) }
def main (xss: [][]i32) = flatten xss
