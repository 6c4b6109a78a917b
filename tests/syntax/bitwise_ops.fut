-- Bitwise and, or, xor and shifts (>> is arithmetic on signed types).
-- ==
-- input { 5 3 } output { 1 7 6 16 -4 15u32 }
def main (a: i32) (b: i32) =
  (a & b, a | b, a ^ b, 1 << 4, -16 >> 2, 0xF0u32 >> 4)
