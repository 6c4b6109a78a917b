-- map3 with mixed element types.
-- ==
-- input { [1, 2, 3] [true, false, true] [1.5, 2.5, 3.5] }
-- output { [2.5, -1.5, 6.5] }
def main [n] (xs: [n]i32) (bs: [n]bool) (fs: [n]f64) =
  map3 (\x b f -> if b then f64.i32 x + f else f - f64.i32 x * 2) xs bs fs
