-- scatter_3d writes at index triples; out-of-bounds triples are ignored.
-- ==
-- input { [0i64, 1i64, 1i64] [0i64, 1i64, 0i64] [1i64, 0i64, 5i64] [1, 2, 3] }
-- output { [[[0, 1], [0, 0]], [[0, 0], [2, 0]]] }
def main [n] (is: [n]i64) (js: [n]i64) (ks: [n]i64) (vs: [n]i32) =
  scatter_3d (replicate 2 (replicate 2 (replicate 2 0))) (zip3 is js ks) vs
