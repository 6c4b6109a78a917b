-- ogham extension: concatenation sizes are associative: [(a+b)+c] equals [a+(b+c)].
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [1] [2, 3] [4, 5, 6] } output { [1, 2, 3, 4, 5, 6] }
def cat3 [a][b][c] (xs: [a]i32) (ys: [b]i32) (zs: [c]i32) : [a+(b+c)]i32 =
  (xs ++ ys) ++ zs
def main (xs: []i32) (ys: []i32) (zs: []i32) = cat3 xs ys zs
