-- NaN is unequal to everything, including itself; all ordered comparisons with NaN are false.
-- -0.0 equals 0.0.
-- ==
-- input { } output { false true false false false false true true }
def main =
  (f64.nan == f64.nan, f64.nan != f64.nan, f64.nan < 1, f64.nan > 1,
   f32.nan <= f32.nan, f32.nan >= 0, -0.0 == 0.0f64, f64.inf > 1e308)
