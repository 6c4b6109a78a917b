-- Nested automatic differentiation (notes §10.2, §10.12).

-- k-means by Newton's method (seed 004 Fig. 3.4) on 1-D points [0, 1, 10]
-- and centres [0, 9]: the cost (the sum of squared distances to the
-- nearest centre) is 0 + 1 + 1 = 2; its gradient is -2(p - c) summed over
-- each centre's points, [-2, -2]; the Hessian's diagonal (by jvp of vjp,
-- Hessian-vector products with ones; the Hessian is diagonal here) counts
-- 2 per point, [4, 2]; and the Newton step c - g/h moves each centre to
-- the mean of its points, [0.5, 10].
-- ==
-- gradcheck input { [0.0, 1.0, 10.0] [0.0, 9.0] }
-- output { 2.0 [-2.0, -2.0] [4.0, 2.0] [0.5, 10.0] }
def cost [n][k] (points: [n]f64) (centres: [k]f64) : f64 =
  f64.sum (map (\p -> f64.minimum (map (\c -> (p - c) ** 2) centres)) points)

def main [n][k] (points: [n]f64) (centres: [k]f64) =
  let (g, h) = jvp2 (\c -> vjp (cost points) c 1) centres (replicate k 1)
  in (cost points centres, g, h, map3 (\c g h -> c - g / h) centres g h)

-- The third derivative of x⁴ by three nested vjps, elementwise on
-- [1, 2, 3]: 24x (notes §10.2).
-- ==
-- entry: third
-- gradcheck input { [1.0, 2.0, 3.0] } output { [24.0, 48.0, 72.0] }
entry third [n] (xs: [n]f64) : [n]f64 =
  let f (xs: [n]f64) = map (\x -> x * x * x * x) xs
  let g (xs: [n]f64) = vjp f xs (replicate n 1)
  let h (xs: [n]f64) = vjp g xs (replicate n 1)
  in vjp h xs (replicate n 1)

-- Forward inside reverse: the gradient of x ↦ (d/dx sin x²)·x is
-- d/dx (2x² cos x²) = 4x cos x² - 4x³ sin x²; at 1: 4 cos 1 - 4 sin 1.
-- ==
-- entry: jvp_in_vjp
-- gradcheck input { 1.0 } output { -1.204674715759027 }
entry jvp_in_vjp (x: f64) : f64 = vjp (\x -> jvp (\y -> f64.sin (y * y)) x 1 * x) x 1
