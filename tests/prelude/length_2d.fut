-- length of a 2-d array is its outer size; length of a row is the inner size.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { 2i64 3i64 }
def main (xss: [][]i32) = (length xss, length xss[0])
