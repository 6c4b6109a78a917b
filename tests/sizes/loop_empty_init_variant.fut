-- An empty initial array whose size the body doubles: `0 + 0` is `0`, yet
-- the size varies across iterations (as for any other initial size), so
-- the result has an existential size, bound here before it is used.
-- ==
-- input { 3i64 } output { [7i64] 0i64 }

def main (k: i64) : ([]i64, i64) =
  let r = loop (xs: []i64) = [] for _i < k do xs ++ xs
  in ([7] ++ r, length r)
