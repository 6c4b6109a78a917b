-- reduce_by_index ignores out-of-bounds indices.
-- ==
-- input { [0, 0] [-1i64, 1i64, 2i64, 1i64] [100, 1, 100, 2] } output { [0, 3] }
def main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) =
  reduce_by_index dest (+) 0 is vs
