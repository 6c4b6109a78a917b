-- get_bit/set_bit on u8 and i64.
-- ==
-- input { 200u8 12i64 } output { 1 0 72u8 201u8 1 8i64 268435468i64 }
def main (a: u8) (b: i64) =
  (u8.get_bit 7 a, u8.get_bit 0 a, u8.set_bit 7 a 0, u8.set_bit 0 a 1,
   i64.get_bit 3 b, i64.set_bit 2 b 0, i64.set_bit 28 b 1)
