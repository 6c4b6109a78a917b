-- In test values, an integer literal with a type suffix is taken modulo
-- 2^bits whatever its size, as Futhark's value readers do: 32767i8 and
-- 65535i8 are both -1i8, 70000u16 is 4464u16 (70000 - 65536).
-- ==
-- input { 32767i8 70000u16 [300u8, -1u8] } output { 65535i8 4464u16 [44u8, 255u8] }
-- input { -129i8 65536u16 [256u8, 0u8] } output { 127i8 0u16 [0u8, 0u8] }
def main (x: i8) (y: u16) (zs: []u8) = (x, y, zs)
