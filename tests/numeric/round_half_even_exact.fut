-- round half to even, checked exactly by converting to integers.
-- ==
-- input { [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.500001] }
-- output { [0i64, 2i64, 2i64, 4i64, 0i64, -2i64, -2i64, 3i64] [0, 2, 2, 4, 0, -2, -2, 3] }
def main (xs: []f64) =
  (map (f64.round >-> i64.f64) xs, map (\x -> i32.f32 (f32.round (f32.f64 x))) xs)
