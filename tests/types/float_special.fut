-- Float special values: inf, nan checks, pi.
-- ==
-- input { 0f32 } output { true true 3.1415927f32 }
def main (z: f32) = (f32.isinf (1 / z), f32.isnan (z / z), f32.pi)
