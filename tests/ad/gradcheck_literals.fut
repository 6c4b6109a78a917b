-- A `gradcheck` case's values are read as the entry's parameter types, as
-- an `input`'s are: integer literals for `f64` arrays. The dot product's
-- value is 1·3 + 2·4 = 11.
-- ==
-- entry: dot
-- input { [1, 2] [3, 4] } output { 11.0 }
-- gradcheck input { [1, 2] [3, 4] }
entry dot [n] (xs: [n]f64) (ys: [n]f64) : f64 = f64.sum (map2 (*) xs ys)
