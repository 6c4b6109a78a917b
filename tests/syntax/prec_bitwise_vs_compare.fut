-- Bitwise operators bind tighter than comparison (unlike C).
-- ==
-- input { 6 3 2 } output { true true false }
def main (a: i32) (b: i32) (c: i32) =
  (a & b == c, a | b == 7, a ^ b == 0)
