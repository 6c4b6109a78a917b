-- Special float values as results; NaN compares equal to NaN in test outputs.
-- ==
-- input { } output { f64.inf -f32.inf f32.nan f64.nan -f64.inf f32.inf }
def main = (f64.inf, -f32.inf, f32.nan, f64.nan, f64.lowest, 1f32 / 0f32)
