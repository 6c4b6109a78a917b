-- Type abbreviations referring to other abbreviations, with both kinds of parameter.
-- ==
-- input { [[1, 2], [3, 4]] } output { [3, 7] }
type row [m] 't = [m]t
type matrix [n] [m] 't = [n](row [m] t)
def rowsums [n][m] (a: matrix [n] [m] i32) : [n]i32 = map i32.sum a
def main (a: [][]i32) = rowsums a
