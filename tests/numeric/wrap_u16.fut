-- Wrapping (two's complement, modulo 2^16) addition, subtraction and multiplication on u16.
-- ==
-- input { 65535u16 1u16 } output { 0u16 65534u16 65535u16 }
-- input { 0u16 1u16 } output { 1u16 65535u16 0u16 }
-- input { 256u16 256u16 } output { 512u16 0u16 0u16 }
-- input { 1000u16 100u16 } output { 1100u16 900u16 34464u16 }
-- input { 65535u16 65535u16 } output { 65534u16 0u16 1u16 }
def main (a: u16) (b: u16) = (a + b, a - b, a * b)
