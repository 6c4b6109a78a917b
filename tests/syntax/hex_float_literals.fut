-- Hexadecimal float literals: mantissa in hex, binary exponent after p.
-- ==
-- input { } output { 3.0 0.25f32 }
def main = (0x1.8p1, 0x1.0p-2f32)
