-- Literal forms.
-- ==
-- input { } output { 255u8 -128i8 1000000i64 255 5 0.5f64 3.0f32 true 1.5e3 }
def main =
  (0xffu8, -128i8, 1_000_000i64, 0xFF, 0b101, 0x1p-1f64, 3f32, !false, 1.5e3)
