-- f32 to integer conversion truncates; 16777217f32 is not representable and rounds to 16777216.
-- ==
-- input { -2.5f32 } output { -2 -2i64 }
-- input { 16777217f32 } output { 16777216 16777216i64 }
-- input { 1e9f32 } output { 1000000000 1000000000i64 }
def main (x: f32) = (i32.f32 x, i64.f32 x)
