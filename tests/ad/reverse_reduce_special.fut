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
