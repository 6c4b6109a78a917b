-- reduce_by_index with max; the existing value participates in the reduction.
-- ==
-- input { [5, 5, 5] [0i64, 1i64, 1i64, 2i64] [3, 7, 9, 5] } output { [5, 9, 5] }
def main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) =
  reduce_by_index dest i32.max i32.lowest is vs
