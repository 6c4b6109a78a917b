-- Wrapping (two's complement, modulo 2^8) addition, subtraction and multiplication on i8.
-- ==
-- input { 127i8 1i8 } output { -128i8 126i8 127i8 }
-- input { -128i8 -1i8 } output { 127i8 -127i8 -128i8 }
-- input { 100i8 100i8 } output { -56i8 0i8 16i8 }
-- input { -100i8 -100i8 } output { 56i8 0i8 16i8 }
-- input { 16i8 8i8 } output { 24i8 8i8 -128i8 }
-- input { -128i8 127i8 } output { -1i8 1i8 -128i8 }
def main (a: i8) (b: i8) = (a + b, a - b, a * b)
