-- An integer literal with a type suffix is taken modulo 2^bits, as in
-- Futhark: 255i8 is -1 and 300u8 is 44. Without a suffix the literal must
-- fit its inferred type (see tests/errors).
-- ==
-- input { } output { -1i8 44u8 -128i8 }

def main = (255i8, 300u8, 128i8)
