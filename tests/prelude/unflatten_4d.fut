-- unflatten_4d with sizes taken from the argument type; round trip through flatten_4d.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
-- output { [[[[1, 2], [3, 4], [5, 6]]], [[[7, 8], [9, 10], [11, 12]]]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
def main (xs: []i32) =
  let y : [2][1][3][2]i32 = unflatten_4d (xs :> [2 * 1 * 3 * 2]i32)
  in (y, flatten_4d y)
