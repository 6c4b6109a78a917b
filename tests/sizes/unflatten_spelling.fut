-- `unflatten` solves `?a * ?b` by the way the argument's size was spelled:
-- `flatten_3d` returns `[n*m*l]`, that is `(n*m)*l`, so a `[2][2][3]` array
-- unflattens to `[4][3]`, and a user function spelled `n*(m*l)` gives
-- `[2][6]`.
-- ==
-- input { [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]] }
-- output { 4i64 3i64 2i64 6i64 [7, 8, 9] }

def flat_right [n] [m] [l] 't (xs: [n][m][l]t) : [n*(m*l)]t =
  flatten (flatten xs) :> [n*(m*l)]t

def main (xss: [][][]i32) =
  let a = unflatten (flatten_3d xss)
  let b = unflatten (flat_right xss)
  in (length a, length a[0], length b, length b[0], a[2])
