-- Bitwise operators bind tighter than comparisons (unlike C), and shifts bind
-- tighter than bitwise operators.
-- ==
-- input { 6 } output { true 7 13 }
def main (x: i32) = (x & 1 == 0, x | 1 << 0, 1 << 2 | 1 << 3 ^ 1)
