-- f32.sum, product, maximum and minimum.
-- ==
-- input { [0.5f32, 0.25f32, 2f32] } output { 2.75f32 0.25f32 2f32 0.25f32 }
-- input { empty([0]f32) } output { 0f32 1f32 -f32.inf f32.inf }
def main (xs: []f32) = (f32.sum xs, f32.product xs, f32.maximum xs, f32.minimum xs)
