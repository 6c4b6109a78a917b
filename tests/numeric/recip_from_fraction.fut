-- recip x = 1/x; from_fraction a b = a/b as a float; to_f64 widens.
-- ==
-- input { } output { 0.25 -2.0f32 0.3333333333333333 3.5f32 0.5 f64.inf }
def main =
  (f64.recip 4, f32.recip (-0.5), f64.from_fraction 1 3, f32.from_fraction 7 2,
   f32.to_f64 0.5, f64.recip 0)
