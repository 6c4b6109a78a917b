-- Empty arrays and their sizes.
-- ==
-- input { } output { 0i64 empty([0]i32) 0 empty([0][2]f64) }
def main : (i64, []i32, i32, [][2]f64) =
  let xs: []i32 = []
  let ys = replicate 0 0i32
  in (length xs, ys, reduce (+) 0 xs, replicate 0 [1.0, 2.0])
