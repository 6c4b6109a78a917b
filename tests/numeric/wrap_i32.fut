-- Wrapping (two's complement, modulo 2^32) addition, subtraction and multiplication on i32.
-- ==
-- input { 2147483647i32 1i32 } output { -2147483648i32 2147483646i32 2147483647i32 }
-- input { -2147483648i32 -1i32 } output { 2147483647i32 -2147483647i32 -2147483648i32 }
-- input { 65536i32 65536i32 } output { 131072i32 0i32 0i32 }
-- input { 46341i32 46341i32 } output { 92682i32 0i32 -2147479015i32 }
-- input { -2147483648i32 2147483647i32 } output { -1i32 1i32 -2147483648i32 }
-- input { 100000i32 -300000i32 } output { -200000i32 400000i32 64771072i32 }
def main (a: i32) (b: i32) = (a + b, a - b, a * b)
