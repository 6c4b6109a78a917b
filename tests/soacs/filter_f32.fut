-- filter on floats; NaN is not greater than anything.
-- ==
-- input { [1.0f32, f32.nan, -3.0f32, 7.5f32] } output { [1.0f32, 7.5f32] }
def main (xs: []f32) = filter (> 0) xs
