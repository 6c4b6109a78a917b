-- Bitwise operators on u8 and u64; ! is the bitwise complement.
-- ==
-- input { 12u8 10u8 0u64 }
-- output { 8u8 14u8 6u8 243u8 18446744073709551615u64 0u64 }
def main (a: u8) (b: u8) (c: u64) = (a & b, a | b, a ^ b, !a, !c, c & !c)
