-- reduce_by_index adds into an existing destination array.
-- ==
-- input { [10, 20, 30] [0i64, 2i64, 2i64, 0i64] [1, 2, 3, 4] } output { [15, 20, 35] }
-- input { [10, 20, 30] empty([0]i64) empty([0]i32) } output { [10, 20, 30] }
def main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) =
  reduce_by_index dest (+) 0 is vs
