-- Float to signed integer conversion truncates toward zero.
-- ==
-- input { 3.7 } output { 3 3i64 3i16 3i8 }
-- input { -3.7 } output { -3 -3i64 -3i16 -3i8 }
-- input { 0.999 } output { 0 0i64 0i16 0i8 }
-- input { -0.5 } output { 0 0i64 0i16 0i8 }
-- input { 12345.99 } output { 12345 12345i64 12345i16 57i8 }
def main (x: f64) = (i32.f64 x, i64.f64 x, i16.f64 x, i8.i32 (i32.f64 x))
