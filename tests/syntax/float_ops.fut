-- Float arithmetic, division and numeric module functions.
-- ==
-- input { 16f32 3.0 } output { 4f32 1.5 -2.0 9.0 }
def main (x: f32) (y: f64) = (f32.sqrt x, y / 2.0, f64.floor (-1.5), y ** 2.0)
