-- The special cases of reduce's reverse rule: min/max give the result's
-- adjoint to the first element equal to the result; a product of floats
-- uses the product of the non-zero elements and the number of zeros
-- (integers, which may wrap, take the general rule). Expected values by
-- hand.

-- ==
-- entry: min_ties
-- input { [3.0, 1.0, 1.0, 2.0] } output { [0.0, 2.0, 0.0, 0.0] }
-- input { empty([0]f64) } output { empty([0]f64) }
-- input { [5.0] } output { [2.0] }
entry min_ties [n] (xs: [n]f64) : [n]f64 = vjp (\xs -> f64.minimum xs) xs 2

-- ==
-- entry: max_in_map
-- gradcheck input { [0.5, -2.0, 1.25] [1.0, 0.5, 3.0] }
entry max_in_map [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  f64.maximum (map2 (\x y -> x * y + f64.sin x) xs ys)

-- ==
-- entry: product_floats
-- input { [2.0, 3.0, 0.0] } output { [0.0, 0.0, 6.0] }
-- input { [2.0, 3.0, 4.0] } output { [12.0, 8.0, 6.0] }
-- input { [0.0, 0.0] } output { [0.0, 0.0] }
-- input { empty([0]f64) } output { empty([0]f64) }
entry product_floats [n] (xs: [n]f64) : [n]f64 = vjp (\xs -> reduce (*) 1 xs) xs 1

-- ==
-- entry: product_ints
-- input { [2, 0, 3] } output { [0, 6, 0] }
-- input { [2, 5, 3] } output { [15, 6, 10] }
entry product_ints [n] (xs: [n]i32) : [n]i32 = vjp (\xs -> reduce (*) 1 xs) xs 1

-- ==
-- entry: product_smooth
-- gradcheck input { [0.5, -2.0, 1.25, 3.0] }
entry product_smooth [n] (xs: [n]f64) : f64 = reduce (*) 1 (map (\x -> x + 0.25) xs)

-- A product that overflows while the products of all elements but one do
-- not: ∂(x₀x₁x₂)/∂x₀ = x₁x₂ = 2e200 is finite though the product is ∞
-- (p/xᵢ would give ∞), and ∂/∂x₂ = 1e400 overflows. In f32 likewise
-- with 1e30. The f64.product of the prelude takes the same rule.
-- ==
-- entry: product_overflowing
-- input { [1e200, 1e200, 2.0] } output { [2e200, 2e200, f64.inf] [2e200, 2e200, f64.inf] }
-- input { [1e200, 1e200, 0.0] } output { [0.0, 0.0, f64.inf] [0.0, 0.0, f64.inf] }
-- input { [1e200, 3.0, 2.0] } output { [6.0, 2e200, 3e200] [6.0, 2e200, 3e200] }
entry product_overflowing [n] (xs: [n]f64) : ([n]f64, [n]f64) =
  (vjp (\xs -> reduce (*) 1 xs) xs 1, vjp f64.product xs 1)

-- ==
-- entry: product_overflowing_f32
-- input { [1e30f32, 1e30f32, 2f32] } output { [2e30f32, 2e30f32, f32.inf] }
entry product_overflowing_f32 [n] (xs: [n]f32) : [n]f32 = vjp f32.product xs 1
