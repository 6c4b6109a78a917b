-- Narrowing integer conversions keep the low bits (wrap around): u8.i32 300 = 44.
-- ==
-- input { 300 } output { 44u8 44i8 300i16 300u16 }
-- input { 70000 } output { 112u8 112i8 4464i16 4464u16 }
-- input { -1 } output { 255u8 -1i8 -1i16 65535u16 }
-- input { 200 } output { 200u8 -56i8 200i16 200u16 }
-- input { -129 } output { 127u8 127i8 -129i16 65407u16 }
def main (x: i32) = (u8.i32 x, i8.i32 x, i16.i32 x, u16.i32 x)
