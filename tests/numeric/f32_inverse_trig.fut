-- asin, acos and atan on f32.
-- ==
-- input { 0.5f32 } output { 0.52359879f32 1.04719758f32 0.463647604f32 }
-- input { -1f32 } output { -1.57079637f32 3.14159274f32 -0.785398185f32 }
-- input { 0f32 } output { 0f32 1.57079637f32 0f32 }
-- input { 0.899999976f32 } output { 1.11976957f32 0.451026797f32 0.732815087f32 }
def main (x: f32) = (f32.asin x, f32.acos x, f32.atan x)
