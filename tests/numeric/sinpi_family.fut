-- The pi-scaled trigonometric functions (newer prelude): sinpi x = sin (pi * x),
-- asinpi x = asin x / pi, atan2pi y x = atan2 y x / pi.
-- ==
-- input { } output { 1.0 0.5 1.0 0.16666666666666666 0.3333333333333333 0.25 0.75 }
def main =
  (f64.sinpi 0.5, f64.cospi (1 / 3), f64.tanpi 0.25,
   f64.asinpi 0.5, f64.acospi 0.5, f64.atanpi 1, f64.atan2pi 1 (-1))
