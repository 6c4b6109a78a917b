-- Minimum of f32 values with f32.inf as neutral element.
-- ==
-- input { [3.5f32, -2.25f32, 8f32] } output { -2.25f32 }
-- input { empty([0]f32) } output { f32.inf }
def main (xs: []f32) = reduce f32.min f32.inf xs
