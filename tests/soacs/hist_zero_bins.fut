-- hist with zero bins: everything is out of bounds and the result is empty.
-- ==
-- input { [0i64, 1i64] [1, 2] } output { empty([0]i32) }
def main [n] (is: [n]i64) (vs: [n]i32) = hist (+) 0 0 is vs
