-- Bitwise and, or, xor and complement (prefix !) on i32.
-- ==
-- input { 12 10 } output { 8 14 6 -13 }
-- input { -1 3855 } output { 3855 -1 -3856 0 }
-- input { 0 0 } output { 0 0 0 -1 }
def main (a: i32) (b: i32) = (a & b, a | b, a ^ b, !a)
