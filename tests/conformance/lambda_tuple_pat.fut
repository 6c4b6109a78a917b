-- Lambdas with tuple patterns and type annotations.
-- ==
-- input { [1, 2, 3] [4.0f32, 5.0f32, 6.0f32] }
-- output { [4.0f32, 10.0f32, 18.0f32] 32.0f32 }
def main (xs: []i32) (ys: []f32) =
  let prods = map (\(x, y) -> f32.i32 x * y) (zip xs ys)
  let total = reduce (\(a: f32) (b: f32) -> a + b) 0f32 prods
  in (prods, total)
