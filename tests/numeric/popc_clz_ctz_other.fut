-- popc, clz and ctz on u8, i16, u32 and i64; results are i32.
-- ==
-- input { 20u8 0i16 2147483648u32 1099511627776i64 }
-- output { 2 3 2 0 16 16 1 0 31 1 23 40 }
-- input { 255u8 -1i16 1u32 0i64 }
-- output { 8 0 0 16 0 0 1 31 0 0 64 64 }
def main (a: u8) (b: i16) (c: u32) (d: i64) =
  (u8.popc a, u8.clz a, u8.ctz a,
   i16.popc b, i16.clz b, i16.ctz b,
   u32.popc c, u32.clz c, u32.ctz c,
   i64.popc d, i64.clz d, i64.ctz d)
