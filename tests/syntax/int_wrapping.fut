-- Integer arithmetic wraps around.
-- ==
-- input { 127i8 255u8 0u32 } output { -128i8 0u8 4294967295u32 -2147483648 }
def main (a: i8) (b: u8) (c: u32) = (a + 1, b + 1, c - 1, i32.highest + 1)
