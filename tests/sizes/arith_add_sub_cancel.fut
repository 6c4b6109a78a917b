-- ogham extension: the size n+1-1 (from take) normalises to n.
-- (Real Futhark rejects this program; that is intended.)
-- ==
-- input { [4, 5, 6] } output { [4, 5, 6] }
def roundtrip [n] (xs: [n]i32) : [n]i32 =
  let ys = xs ++ [0]
  in take (n+1-1) ys
def main (xs: []i32) = roundtrip xs
