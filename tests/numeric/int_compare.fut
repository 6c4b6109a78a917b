-- Comparisons on signed integers, including the extremes.
-- ==
-- input { -2147483648 2147483647 } output { true true false false true }
-- input { 3 3 } output { false true false true false }
def main (a: i32) (b: i32) = (a < b, a <= b, a > b, a >= b, a != b)
