-- Unsigned arithmetic wraps around; comparisons are unsigned.
-- ==
-- input { 250u8 10u8 } output { 4u8 240u8 true 4294967295u32 25u8 }
def main (a: u8) (b: u8) = (a + b, a - b, a > b, u32.highest, a / b)
