-- Hexadecimal integer literals, with and without suffix, upper and lower case digits.
-- ==
-- input { } output { 271 255u8 255i64 }
def main = (0xff + 0x10, 0xffu8, 0xFFi64)
