-- Boolean and bitwise operators and precedence.
-- ==
-- input { 12 10 } output { 8 14 6 48 3 true -13 }
def main (a: i32) (b: i32) =
  (a & b, a | b, a ^ b, a << 2, a >> 2, a > b && !(a == b) || false, !a)
