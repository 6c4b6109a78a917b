-- Unsigned division and remainder on u8: all four operators agree.
-- ==
-- input { 7u8 2u8 } output { 3u8 1u8 3u8 1u8 }
-- input { 255u8 16u8 } output { 15u8 15u8 15u8 15u8 }
-- input { 200u8 201u8 } output { 0u8 200u8 0u8 200u8 }
def main (a: u8) (b: u8) = (a / b, a % b, a // b, a %% b)
