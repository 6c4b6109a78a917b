-- Array types of several ranks and element types.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [true, false] } output { 2i64 3i64 [[1, 4], [2, 5], [3, 6]] false }
def main (a: [][]i32) (b: []bool) = (length a, length a[0], transpose a, b[1])
