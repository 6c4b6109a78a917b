-- Reverse mode through maps and reductions (notes §10.6, §10.10).

-- Reads of a free array by index accumulate: xs = [4,3,2,1] read at
-- [0,0,3,3] has the adjoint [2,0,0,2] for all-ones ȳ.
-- ==
-- entry: gather
-- input { [4.0, 3.0, 2.0, 1.0] [0i64, 0i64, 3i64, 3i64] [1.0, 1.0, 1.0, 1.0] } output { [2.0, 0.0, 0.0, 2.0] }
-- input { [4.0, 3.0, 2.0, 1.0] [0i64, 0i64, 3i64, 3i64] [1.0, 2.0, 3.0, 4.0] } output { [3.0, 0.0, 0.0, 7.0] }
entry gather [n][m] (xs: [n]f64) (is: [m]i64) (ys: [m]f64) : [n]f64 = vjp (\xs -> map (\i -> xs[i]) is) xs ys

-- A free scalar of a map: d/dc (map (*c) xs) · ȳ = Σ xs·ȳ.
-- ==
-- entry: scaled
-- input { 2.0 [1.0, 2.0, 3.0] [0.0, 1.0, 0.0] } output { 2.0 }
-- input { 2.0 [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] } output { 6.0 }
entry scaled [n] (c: f64) (xs: [n]f64) (ys: [n]f64) : f64 = vjp (\c -> map (* c) xs) c ys

-- Matrix product with C̄ = ones: Ā = C̄·Bᵀ = [[11,15],[11,15]] and
-- B̄ = Aᵀ·C̄ = [[4,4],[6,6]].
-- ==
-- entry: matmul
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] [[1.0, 1.0], [1.0, 1.0]] }
-- output { [[11.0, 15.0], [11.0, 15.0]] [[4.0, 4.0], [6.0, 6.0]] }
entry matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (cbar: [n][p]f64) : ([n][m]f64, [m][p]f64) =
  vjp (\(a, b) -> map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a) (a, b) cbar

-- reduce (*): the adjoint of each element is the product of the others,
-- including when some are zero.
-- ==
-- entry: product
-- input { [1.0, 2.0, 3.0] } output { [6.0, 3.0, 2.0] }
-- input { [2.0, 0.0, 3.0] } output { [0.0, 6.0, 0.0] }
-- input { [0.0, 2.0, 0.0, 4.0] } output { [0.0, 0.0, 0.0, 0.0] }
entry product [n] (xs: [n]f64) : [n]f64 = vjp (\xs -> reduce (*) 1 xs) xs 1

-- The maximum of absolute values: only the first largest element gets
-- an adjoint, with the sign of the element.
-- ==
-- entry: max_abs
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, -6.0, 5.0] } output { [0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0] }
-- input { [1.0, 1.0] } output { [1.0, 0.0] }
entry max_abs [n] (xs: [n]f64) : [n]f64 = vjp (\xs -> f64.maximum (map f64.abs xs)) xs 1

-- A non-commutative operator: the composition of affine maps
-- (a1, b1) ⊙ (a2, b2) = (a2 + b2·a1, b1·b2) folded over [(1,2), (3,4), (5,6)]
-- from (0, 1) gives a = 5 + 6·(3 + 4·1) = 47; as a function of the first
-- component of the middle pair, ∂a/∂a₂ = b₃ = 6.
-- ==
-- entry: affine
-- input { 3.0 } output { 6.0 }
entry affine (a2: f64) : f64 =
  let op (a1: f64, b1: f64) (a2: f64, b2: f64) = (a2 + b2 * a1, b1 * b2)
  let f (x: f64) = (reduce op (0, 1) [(1, 2), (x, 4), (5, 6)]).0
  in vjp f a2 1
