-- iota and indices.
-- ==
-- input { [7, 8, 9] } output { [0i64, 1i64, 2i64] [0i64, 1i64, 2i64] }
def main (xs: []i32) = (iota (length xs), indices xs)
