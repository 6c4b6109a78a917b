-- epsilon is the gap between 1.0 and the next larger float.
-- ==
-- input { } output { 1.1920929e-7f32 2.220446049250313e-16 true true true true }
def main =
  (f32.epsilon, f64.epsilon,
   1 + f64.epsilon != 1, 1 + f64.epsilon / 2 == 1,
   1 + f32.epsilon != 1, 1 + f32.epsilon / 2 == 1)
