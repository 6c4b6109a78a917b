-- Numeric module constants and functions: highest, lowest, max, min, abs, sgn.
-- ==
-- input { -4 } output { 127i8 -128i8 3 -4 4 -1 }
def main (x: i32) = (i8.highest, i8.lowest, i32.max x 3, i32.min x 3, i32.abs x, i32.sgn x)
