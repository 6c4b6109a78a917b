-- Multi-dimensional indexing and slicing.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- output { 6 [4, 5, 6] [2, 5, 8] [[5, 6], [8, 9]] [9, 5, 1] }
def main [n] (m: [n][n]i32) =
  (m[1, 2], m[1], m[:, 1], m[1:, 1:], map (\i -> m[n - 1 - i, n - 1 - i]) (iota n))
