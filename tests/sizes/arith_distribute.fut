-- ogham extension: [n*(m+1)] equals [n*m+n].
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [[1, 2], [3, 4]] } output { [1, 2, 0, 3, 4, 0] }
def pad [n][m] (a: [n][m]i32) : [n*m+n]i32 =
  flatten (map (\row -> row ++ [0]) a)
def main (a: [][]i32) = pad a
