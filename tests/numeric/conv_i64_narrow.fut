-- Narrowing from i64 and u64 keeps the low bits.
-- ==
-- input { 4294967301i64 18446744073709551615u64 } output { 5 5u32 -1 65535u16 }
-- input { -4294967296i64 4294967296u64 } output { 0 0u32 0 0u16 }
def main (x: i64) (y: u64) = (i32.i64 x, u32.i64 x, i32.u64 y, u16.u64 y)
