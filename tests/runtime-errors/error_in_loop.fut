-- An out-of-bounds access on a late loop iteration is reported.
-- ==
-- input { [1, 2, 3] 3i64 } output { 6 }
-- input { [1, 2, 3] 4i64 } error: out of bounds
def main (xs: []i32) (n: i64) = loop acc = 0 for i < n do acc + xs[i]
