-- unflatten_3d with sizes taken from the argument type.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8] } output { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
def main (xs: []i32) : [2][2][2]i32 = unflatten_3d (xs :> [2 * 2 * 2]i32)
