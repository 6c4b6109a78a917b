-- Shifts on unsigned types: << wraps, >>> is logical; >> on values whose top bit is clear.
-- ==
-- input { 200u8 100u8 4000000000u32 1u64 } output { 144u8 100u8 50u8 2000000000u32 250000000u32 9223372036854775808u64 }
def main (a: u8) (b: u8) (c: u32) (d: u64) =
  (a << 1, a >>> 1, b >> 1, c >>> 1, c >>> 4, d << 63)
