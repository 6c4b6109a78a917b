-- ogham extension: [n*m] and [m*n] are the same size.
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [1, 2, 3, 4, 5, 6] }
def flat [n][m] (a: [n][m]i32) : [m*n]i32 = flatten a
def main (a: [][]i32) = flat a
