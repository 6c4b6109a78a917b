-- concat is the prefix form of ++; concatenation is associative on 2-d arrays too.
-- ==
-- input { [[1, 2]] [[3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] 3i64 }
def main (xs: [][2]i32) (ys: [][2]i32) =
  let zs = concat xs ys
  in (zs, length zs)
