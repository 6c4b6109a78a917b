-- An out-of-bounds second index into a matrix.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 1i64 } output { 4 }
-- input { [[1, 2], [3, 4]] 1i64 2i64 } error: out of bounds
def main (a: [][]i32) (i: i64) (j: i64) = a[i, j]
