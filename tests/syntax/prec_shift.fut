-- Shifts bind looser than + and tighter than bitwise and.
-- ==
-- input { 12 } output { 8 8 4 }
def main (x: i32) = (1 << 2 + 1, 1 + 1 << 2, x & 1 << 2)
