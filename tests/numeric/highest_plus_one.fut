-- Adding one to highest wraps to lowest for every integer type.
-- ==
-- input { } output { true true true true true true true true }
def main =
  (i8.highest + 1 == i8.lowest, i16.highest + 1 == i16.lowest,
   i32.highest + 1 == i32.lowest, i64.highest + 1 == i64.lowest,
   u8.highest + 1 == u8.lowest, u16.highest + 1 == u16.lowest,
   u32.highest + 1 == u32.lowest, u64.highest + 1 == u64.lowest)
