-- split at a position k obtained by coercing the size to k + (n - k).
-- ==
-- input { 1i64 [5, 6, 7, 8] } output { [5] [6, 7, 8] }
-- input { 4i64 [5, 6, 7, 8] } output { [5, 6, 7, 8] empty([0]i32) }
def main [n] (k: i64) (xs: [n]i32) =
  let (a, b) = split (xs :> [k + (n - k)]i32)
  in (a, b)
