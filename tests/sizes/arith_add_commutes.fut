-- ogham extension: sizes unify modulo arithmetic, so [n+1] and [1+n] are equal.
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [1, 2, 3] 9 } output { [1, 2, 3, 9] }
def snoc [n] (xs: [n]i32) (x: i32) : [1+n]i32 = xs ++ [x]
def main (xs: []i32) (x: i32) = snoc xs x
