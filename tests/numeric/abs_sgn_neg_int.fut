-- abs, sgn and neg on signed integers; abs of the lowest value wraps to itself.
-- ==
-- input { -5 } output { 5 -1 5 }
-- input { 0 } output { 0 0 0 }
-- input { 9 } output { 9 1 -9 }
-- input { -2147483648 } output { -2147483648 -1 -2147483648 }
def main (x: i32) = (i32.abs x, i32.sgn x, i32.neg x)
