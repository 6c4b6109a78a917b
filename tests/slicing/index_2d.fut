-- Multi-dimensional indexing a[i, j] equals a[i][j].
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] 2i64 0i64 } output { 7 7 }
def main (a: [][]i32) (i: i64) (j: i64) = (a[i, j], a[i][j])
