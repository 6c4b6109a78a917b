-- Wrapping (two's complement, modulo 2^16) addition, subtraction and multiplication on i16.
-- ==
-- input { 32767i16 1i16 } output { -32768i16 32766i16 32767i16 }
-- input { -32768i16 -1i16 } output { 32767i16 -32767i16 -32768i16 }
-- input { 300i16 300i16 } output { 600i16 0i16 24464i16 }
-- input { -200i16 200i16 } output { 0i16 -400i16 25536i16 }
-- input { 256i16 128i16 } output { 384i16 128i16 -32768i16 }
-- input { 12345i16 -23456i16 } output { -11111i16 -29735i16 -26272i16 }
def main (a: i16) (b: i16) = (a + b, a - b, a * b)
