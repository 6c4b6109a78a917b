-- Converting a signed value to a WIDER unsigned type zero-extends the source bits
-- (Futhark's prelude uses zext here), so u32.i8 (-1i8) is 255, not 4294967295.
-- ==
-- input { -1i8 -1 -128i8 } output { 255u32 4294967295u64 128u16 }
def main (a: i8) (b: i32) (c: i8) = (u32.i8 a, u64.i32 b, u16.i8 c)
