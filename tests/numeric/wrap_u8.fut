-- Wrapping (two's complement, modulo 2^8) addition, subtraction and multiplication on u8.
-- ==
-- input { 255u8 1u8 } output { 0u8 254u8 255u8 }
-- input { 0u8 1u8 } output { 1u8 255u8 0u8 }
-- input { 16u8 16u8 } output { 32u8 0u8 0u8 }
-- input { 200u8 100u8 } output { 44u8 100u8 32u8 }
-- input { 128u8 2u8 } output { 130u8 126u8 0u8 }
def main (a: u8) (b: u8) = (a + b, a - b, a * b)
