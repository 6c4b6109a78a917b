-- Slicing both dimensions of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] } output { [[5, 6], [8, 9]] [[3, 2, 1], [9, 8, 7]] }
def main (a: [][]i32) = (a[1:, 1:], a[::2, ::-1])
