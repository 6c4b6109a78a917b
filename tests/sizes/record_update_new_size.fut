-- Updating a record's array field may change its size; the record's type
-- follows the new value.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [3, 4, 5] [3, 4, 5] 3i64 }

def main [n] [m] (xs: [n]i32) (ys: [m]i32) : ([m]i32, [m]i32, i64) =
  let r0 = {xs, ys}
  let r1 = r0 with xs = ys
  in (r1.xs, r1.ys, length r1.xs)
