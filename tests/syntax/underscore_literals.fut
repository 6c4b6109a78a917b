-- Underscores as digit separators in decimal, hexadecimal and binary literals.
-- ==
-- input { } output { 1000 2000000i64 65535 240u8 }
def main = (1_000, 2_000_000i64, 0xff_ff, 0b1111_0000u8)
