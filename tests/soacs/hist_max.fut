-- hist with max as the operator; empty bins get the neutral element.
-- ==
-- input { [0i64, 0i64, 2i64, 2i64, 2i64] [5, 9, -3, -7, -1] } output { [9, -2147483648, -1, -2147483648] }
def main [n] (is: [n]i64) (vs: [n]i32) = hist i32.max i32.lowest 4 is vs
