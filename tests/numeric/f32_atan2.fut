-- atan2 y x on f32 picks the quadrant from the signs of both arguments.
-- ==
-- input { 1f32 1f32 } output { 0.785398185f32 }
-- input { 1f32 -1f32 } output { 2.3561945f32 }
-- input { -1f32 -1f32 } output { -2.3561945f32 }
-- input { 0f32 -1f32 } output { 3.14159274f32 }
-- input { -2f32 0f32 } output { -1.57079637f32 }
-- input { 3f32 4f32 } output { 0.643501103f32 }
def main (y: f32) (x: f32) = f32.atan2 y x
