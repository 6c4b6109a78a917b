-- Integer literal forms: hexadecimal, binary, underscores, type suffixes and character literals.
-- ==
-- input { } output { 255u8 5 1000000i64 -1i8 97 255 4294967295u32 }
def main = (0xffu8, 0b101, 1_000_000i64, -1i8, 'a', 0xFF, 0xffffffffu32)
