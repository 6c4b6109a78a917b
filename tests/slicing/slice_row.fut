-- a[i, :] and a[i] select a row; a[:, j] selects a column.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } output { [4, 5, 6] [4, 5, 6] [3, 6, 9] }
def main (a: [][]i32) = (a[1, :], a[1], a[:, 2])
