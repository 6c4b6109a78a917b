-- Reverse mode of matrix products written with maps: Ā = C̄·Bᵀ and
-- B̄ = Aᵀ·C̄ (seed 004 §5.1), computed as two more matrix products.
-- Expected values: the seed's example (A = [[1,2],[3,4]], B = [[5,6],[7,8]],
-- C̄ = ones gives Ā = [[11,15],[11,15]], B̄ = [[4,4],[6,6]]), and the others
-- from the formulas, checked by hand on their first elements
-- (Ā[0][0] = 1·2 + (-2)(-1) = 4, B̄[0][0] = 1·1 + 0.5·0.5 = 1.25).

def dot [m] (x: [m]f64) (y: [m]f64) : f64 = f64.sum (map2 (*) x y)

def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\r -> map (\c -> dot r c) (transpose b)) a

-- ==
-- entry: adjoints
-- input { [[1.0, 2.0], [3.0, 4.0]] [[5.0, 6.0], [7.0, 8.0]] [[1.0, 1.0], [1.0, 1.0]] }
-- output { [[11.0, 15.0], [11.0, 15.0]] [[4.0, 4.0], [6.0, 6.0]] }
-- input { [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]] [[2.0, -1.0], [1.0, 0.5], [-2.0, 4.0]] [[1.0, -2.0], [0.5, 3.0]] }
-- output { [[4.0, 0.0, -10.0], [-2.0, 2.0, 11.0]] [[1.25, -0.5], [3.5, 5.0], [0.0, 8.0]] }
-- input { empty([0][3]f64) [[2.0, -1.0], [1.0, 0.5], [-2.0, 4.0]] empty([0][2]f64) }
-- output { empty([0][3]f64) [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]] }
entry adjoints [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (cbar: [n][p]f64) : ([n][m]f64, [m][p]f64) =
  vjp (\(a, b) -> matmul a b) (a, b) cbar

-- The transposition outside the map.
-- ==
-- entry: transposed_outside
-- input { [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]] [[2.0, -1.0], [1.0, 0.5], [-2.0, 4.0]] [[1.0, -2.0], [0.5, 3.0]] }
-- output { [[4.0, 0.0, -10.0], [-2.0, 2.0, 11.0]] [[1.25, -0.5], [3.5, 5.0], [0.0, 8.0]] }
entry transposed_outside [n][m][p] (a: [n][m]f64) (b: [m][p]f64) (cbar: [n][p]f64) : ([n][m]f64, [m][p]f64) =
  vjp (\(a, b) -> let bt = transpose b in map (\r -> map (\c -> dot r c) bt) a) (a, b) cbar

-- Rows against rows: C = A·Btᵀ with Bt: [p][m]; Ā = C̄·Bt, B̄t = C̄ᵀ·A.
-- ==
-- entry: rows_against_rows
-- input { [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]] [[2.0, 1.0, -2.0], [-1.0, 0.5, 4.0]] [[1.0, -2.0], [0.5, 3.0]] }
-- output { [[4.0, 0.0, -10.0], [-2.0, 2.0, 11.0]] [[1.25, 3.5, 0.0], [-0.5, 5.0, 8.0]] }
entry rows_against_rows [n][m][p] (a: [n][m]f64) (bt: [p][m]f64) (cbar: [n][p]f64) : ([n][m]f64, [p][m]f64) =
  vjp (\(a, bt) -> map (\r -> map (\c -> dot r c) bt) a) (a, bt) cbar

-- The Gram matrix A·Aᵀ: both operands are A, Ā = (C̄ + C̄ᵀ)·A.
-- ==
-- entry: gram
-- input { [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]] [[1.0, 2.0], [-1.0, 0.5]] }
-- output { [[2.5, 7.0, 0.0], [1.5, 5.0, 1.0]] }
entry gram [n][m] (a: [n][m]f64) (cbar: [n][n]f64) : [n][m]f64 =
  vjp (\a -> map (\r -> map (\c -> dot r c) a) a) a cbar

-- Products inside a map (a batch with a shared B): the rule applies to
-- each, B's adjoint summing the batch's; all-ones C̄.
-- ==
-- entry: batched
-- input { [[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [-1.0, 2.0]]] [[5.0, 6.0], [7.0, 8.0]] }
-- output { [[[11.0, 15.0], [11.0, 15.0]], [[11.0, 15.0], [11.0, 15.0]]] [[3.0, 3.0], [9.0, 9.0]] }
entry batched [k][n][m][p] (as: [k][n][m]f64) (b: [m][p]f64) : ([k][n][m]f64, [m][p]f64) =
  vjp (\(as, b) -> f64.sum (map (\a -> f64.sum (map f64.sum (matmul a b))) as)) (as, b) 1

-- ‖A·B‖² (133 on this input), checked against finite differences and
-- vjp against jvp.
-- ==
-- entry: frobenius
-- gradcheck input { [[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]] [[2.0, -1.0], [1.0, 0.5], [-2.0, 4.0]] }
-- output { 133.0 }
entry frobenius [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : f64 =
  f64.sum (map (\r -> f64.sum (map (\x -> x * x) r)) (matmul a b))
