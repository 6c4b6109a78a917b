-- ?[n]. at the top of a parameter's type means the argument's size; it is
-- not rigid, so it may equal another parameter's size.
-- ==
-- input { [true, false, true] [1, 2, 3] } output { 3i64 [1, 3] }
def count (xs: ?[n].[n]bool) : i64 = length xs

def main [k] (bs: ?[m].[m]bool) (ys: [k]i32) =
  (count bs, map (.1) (filter (.0) (zip bs ys)))
