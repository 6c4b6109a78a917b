-- The loop index takes the type of the bound: here i64, used for indexing.
-- ==
-- input { [5, 6, 7] } output { 18 }
def main [n] (xs: [n]i32) =
  loop acc = 0 for i < n do acc + xs[i]
