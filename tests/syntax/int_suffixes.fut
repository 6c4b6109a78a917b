-- Integer literals with every type suffix.
-- ==
-- input { } output { 1i8 2i16 3i32 4i64 5u8 6u16 7u32 8u64 }
def main : (i8, i16, i32, i64, u8, u16, u32, u64) =
  (1i8, 2i16, 3i32, 4i64, 5u8, 6u16, 7u32, 8u64)
