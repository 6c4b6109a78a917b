-- foldl where the accumulator and element types differ.
-- ==
-- input { [true, false, true, true] } output { 4i64 3 }
def main (bs: []bool) =
  foldl (\(n, c) b -> (n + 1, if b then c + 1 else c)) (0i64, 0i32) bs
