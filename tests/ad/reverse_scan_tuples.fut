-- Reverse mode through scans of tuples and of rows with operators other
-- than `+` (seed 004 §4.3: a linear recurrence of adjoints solved by a
-- scan of composed affine maps, with k×k matrices for k-tuples; a
-- vectorised operator is scanned one column at a time). Expected values
-- are exact central differences on rationals, computed independently.

-- Prefix products of 2×2 matrices (row-major tuples), adjoint one on
-- every entry of every prefix: M = [[1,2],[0,1]], [[2,0],[1,1]],
-- [[1,-1],[3,2]].
-- ==
-- entry: matrices
-- gradcheck input { [[1.0, 2.0, 0.0, 1.0], [2.0, 0.0, 1.0, 1.0], [1.0, -1.0, 3.0, 2.0]] }
-- output { [[3.0, 8.0, 3.0, 8.0], [1.0, 6.0, 3.0, 18.0], [5.0, 5.0, 3.0, 3.0]] }
entry matrices [n] (ms: [n][4]f64) : [n][4]f64 =
  let mm (a1, b1, c1, d1) (a2, b2, c2, d2) : (f64, f64, f64, f64) =
    (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2)
  let tup = map (\m -> (m[0], m[1], m[2], m[3])) ms
  let seed = replicate n (1, 1, 1, 1)
  in vjp (scan mm (1, 0, 0, 1)) tup seed |> map (\(a, b, c, d) -> [a, b, c, d])

-- The linear recurrence a' = a₂ + b₂·a₁ as a scan of pairs, with adjoints
-- (1, [1,0,2]) on the two components.
-- ==
-- entry: recurrence
-- gradcheck input { [1.0, 3.0, 0.5] [2.0, -1.0, 4.0] [1.0, 0.0, 2.0] }
-- output { [-4.0, 5.0, 1.0] [-7.0, 21.0, -2.0] }
entry recurrence [n] (as: [n]f64) (bs: [n]f64) (wb: [n]f64) : ([n]f64, [n]f64) =
  let f (as, bs) = unzip (scan (\(a1, b1) (a2, b2) -> (a2 + b2 * a1, b1 * b2)) (0, 1) (zip as bs))
  in vjp f (as, bs) (replicate n 1, wb)

-- Three different operators in one tuple (+, *, max), no ties.
-- ==
-- entry: mixed
-- gradcheck input { [1.0, 2.0, 3.0, 4.0] [2.0, 3.0, 0.5, 2.0] [5.0, 1.0, 7.0, 6.0] }
-- output { [4.0, 3.0, 2.0, 1.0] [8.5, 5.0, 18.0, 3.0] [2.0, 0.0, 2.0, 0.0] }
entry mixed [n] (as: [n]f64) (bs: [n]f64) (cs: [n]f64) : ([n]f64, [n]f64, [n]f64) =
  let f (as, bs, cs) =
    unzip3 (scan (\(a1, b1, c1) (a2, b2, c2) -> (a1 + a2, b1 * b2, f64.max c1 c2)) (0, 1, f64.lowest) (zip3 as bs cs))
  in vjp f (as, bs, cs) (replicate n 1, replicate n 1, replicate n 1)

-- A vectorised operator: prefix products of rows, column by column.
-- ==
-- entry: rows
-- gradcheck input { [[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]] }
-- output { [[1.0, 7.0], [0.0, 3.0], [3.0, 8.0]] }
entry rows [n] (xs: [n][2]f64) : [n][2]f64 =
  vjp (scan (map2 (*)) [1, 1]) xs (replicate n [1, 1])

-- Empty and one-element scans.
-- ==
-- entry: short
-- gradcheck input { empty([0]f64) empty([0]f64) } output { empty([0]f64) empty([0]f64) }
-- gradcheck input { [3.0] [2.0] } output { [1.0] [1.0] }
entry short [n] (as: [n]f64) (bs: [n]f64) : ([n]f64, [n]f64) =
  let f (as, bs) = unzip (scan (\(a1, b1) (a2, b2) -> (a2 + b2 * a1, b1 * b2)) (0, 1) (zip as bs))
  in vjp f (as, bs) (replicate n 1, replicate n 1)

-- Floats of two types in one tuple: the recurrence x' = x·a, y' = y·a + b
-- with x, a in f32 and y, b in f64 (carried in f64, the adjoints of the
-- f32 components converted back). Adjoint one on every prefix of both;
-- exact values from forward-mode dual numbers, computed independently.
-- ==
-- entry: floats
-- input { [0.5f32, 2f32, -1f32, 3f32] [1.0, 2.0, 3.0, 4.0] }
-- output { [-5f32, -4.5f32, 20f32, -2f32] [-5.0, -3.0, 4.0, 1.0] }
entry floats [n] (as: [n]f32) (bs: [n]f64) : ([n]f32, [n]f64) =
  let f (as, bs) = unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * f64.f32 a2 + b2)) (1, 0) (zip as bs))
  in vjp f (as, bs) (replicate n 1, replicate n 1)

-- The same with the f64 component first and an adjoint on the f32 prefix
-- products alone: the f64 inputs get zeros.
-- ==
-- entry: floats_one_side
-- input { [0.5f32, 2f32, -1f32, 3f32] [1.0, 2.0, 3.0, 4.0] }
-- output { [-5f32, -1.5f32, 4f32, -1f32] [0.0, 0.0, 0.0, 0.0] }
entry floats_one_side [n] (as: [n]f32) (bs: [n]f64) : ([n]f32, [n]f64) =
  let f (bs, as) = unzip (scan (\(b1, a1) (b2, a2) -> (b1 * f64.f32 a2 + b2, a1 * a2)) (0, 1) (zip bs as))
  let (dbs, das) = vjp f (bs, as) (replicate n 0, replicate n 1)
  in (das, dbs)
