-- popc (population count), clz (leading zeros) and ctz (trailing zeros) on i32;
-- clz and ctz of zero give the number of bits.
-- ==
-- input { 0 } output { 0 32 32 }
-- input { 1 } output { 1 31 0 }
-- input { -1 } output { 32 0 0 }
-- input { 240 } output { 4 24 4 }
-- input { -2147483648 } output { 1 0 31 }
def main (x: i32) = (i32.popc x, i32.clz x, i32.ctz x)
