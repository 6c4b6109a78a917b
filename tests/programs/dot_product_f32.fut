-- Dot product in f32.
-- ==
-- input { [1.5f32, 2.0f32, -1.0f32] [2.0f32, 0.5f32, 4.0f32] } output { 0.0f32 }
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] } output { 32f32 }
def main [n] (xs: [n]f32) (ys: [n]f32) = f32.sum (map2 (*) xs ys)
