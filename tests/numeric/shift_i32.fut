-- Shifts on i32: << (left), >> (arithmetic right, sign-extending), >>> (logical right, zero-filling).
-- ==
-- input { 1i32 4i32 } output { 16i32 0i32 0i32 }
-- input { -16i32 2i32 } output { -64i32 -4i32 1073741820i32 }
-- input { -1i32 31i32 } output { -2147483648i32 -1i32 1i32 }
-- input { 1073741824i32 1i32 } output { -2147483648i32 536870912i32 536870912i32 }
-- input { 123456789i32 7i32 } output { -1377400192i32 964506i32 964506i32 }
def main (x: i32) (s: i32) = (x << s, x >> s, x >>> s)
