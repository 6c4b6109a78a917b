-- hypot on f32.
-- ==
-- input { 3f32 4f32 } output { 5f32 }
-- input { -5f32 12f32 } output { 13f32 }
-- input { 0f32 0f32 } output { 0f32 }
-- input { 1.00000002e30f32 1.00000002e30f32 } output { 1.41421351e30f32 }
def main (x: f32) (y: f32) = f32.hypot x y
