-- mul_hi gives the high half of the double-width product; mad_hi a b c = mul_hi a b + c.
-- ==
-- input { } output { 1 -1 4294967294u32 18446744073709551614u64 1i64 156u8 11 0u8 }
def main =
  (i32.mul_hi 65536 65536,
   i32.mul_hi (-1) 1,
   u32.mul_hi 4294967295 4294967295,
   u64.mul_hi 18446744073709551615 18446744073709551615,
   i64.mul_hi 4611686018427387904 4,
   u8.mul_hi 200 200,
   i32.mad_hi 65536 65536 10,
   u8.mad_hi 200 200 100)
