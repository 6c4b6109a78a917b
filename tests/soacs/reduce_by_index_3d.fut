-- reduce_by_index_3d with triples of indices; max as the operator.
-- ==
-- input { [0i64, 1i64, 1i64, 0i64, 1i64] [1i64, 0i64, 0i64, 1i64, 2i64] [1i64, 1i64, 1i64, 1i64, 0i64] [3, 5, 2, 7, 9] }
-- output { [[[0, 0], [0, 7]], [[0, 5], [0, 0]]] }
def main [n] (is: [n]i64) (js: [n]i64) (ks: [n]i64) (vs: [n]i32) =
  reduce_by_index_3d (replicate 2 (replicate 2 (replicate 2 0))) i32.max i32.lowest
                     (zip3 is js ks) vs
