-- Type abbreviations with size and type parameters.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 3], [2, 4]] [4, 6] }
type matrix [n][m] 't = [n][m]t
type vec 't = []t
def colsum [n][m] (a: matrix [n][m] i32) : vec i32 = map i32.sum (transpose a)
def main (a: matrix [][] i32) = (transpose a, colsum a)
