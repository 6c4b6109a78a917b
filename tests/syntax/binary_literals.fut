-- Binary integer literals.
-- ==
-- input { 1 } output { 6 240u8 }
def main (x: i32) = (0b101 + x, 0b11110000u8)
