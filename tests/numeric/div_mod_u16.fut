-- Unsigned division and remainder on u16: all four operators agree.
-- ==
-- input { 65535u16 256u16 } output { 255u16 255u16 255u16 255u16 }
-- input { 1000u16 7u16 } output { 142u16 6u16 142u16 6u16 }
def main (a: u16) (b: u16) = (a / b, a % b, a // b, a %% b)
