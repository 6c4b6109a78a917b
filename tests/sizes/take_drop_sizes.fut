-- take and drop have sizes i and n-i; their concatenation is the original.
-- ==
-- input { [1, 2, 3, 4, 5] 2i64 } output { [1, 2] [3, 4, 5] [1, 2, 3, 4, 5] }
def main (xs: []i32) (i: i64) =
  let a = take i xs
  let b = drop i xs
  in (a, b, a ++ b)
