-- Wrapping (two's complement, modulo 2^32) addition, subtraction and multiplication on u32.
-- ==
-- input { 4294967295u32 1u32 } output { 0u32 4294967294u32 4294967295u32 }
-- input { 0u32 1u32 } output { 1u32 4294967295u32 0u32 }
-- input { 65536u32 65536u32 } output { 131072u32 0u32 0u32 }
-- input { 4000000000u32 3000000000u32 } output { 2705032704u32 1000000000u32 3635412992u32 }
-- input { 123456789u32 1000u32 } output { 123457789u32 123455789u32 3197704712u32 }
def main (a: u32) (b: u32) = (a + b, a - b, a * b)
