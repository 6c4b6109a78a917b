-- Coercing a filter result to the input size fails when elements were removed.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] }
-- input { [1, -2, 3] } error: .
def main [n] (xs: [n]i32) : [n]i32 = filter (> 0) xs :> [n]i32
