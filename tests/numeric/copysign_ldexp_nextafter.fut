-- copysign, ldexp and nextafter (nextafter results checked exactly via to_bits).
-- ==
-- input { } output { -3.0 2.0 24.0 0.125 4607182418800017409u64 1u64 1065353215u32 }
def main =
  (f64.copysign 3.0 (-0.5), f64.copysign (-2.0) 1.0,
   f64.ldexp 1.5 4, f64.ldexp 1.0 (-3),
   f64.to_bits (f64.nextafter 1.0 2.0), f64.to_bits (f64.nextafter 0.0 1.0),
   f32.to_bits (f32.nextafter 1.0 0.0))
