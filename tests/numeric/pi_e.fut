-- The constants pi and e in f64 and f32 (f32 values are rounded from the f64 ones).
-- ==
-- input { } output { 3.141592653589793 2.718281828459045 3.1415927f32 2.7182817f32 3.141592653589793 }
def main = (f64.pi, f64.e, f32.pi, f32.e, f64.acos (-1))
