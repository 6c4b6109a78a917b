-- vjp of scans whose elements are arrays, with operators that are not a
-- vectorised scalar operator (those go column by column): a matrix
-- product, a rotation written as an array literal, a composition of
-- affine maps stored as rows, a segmented product steered by flags. The
-- return sweep runs the recurrence of the ys' adjoints from the end, one
-- element at a time.
-- Checked by the harness against finite differences and forward mode;
-- `chain_values` by hand.

def matmul [k] (a: [k][k]f64) (b: [k][k]f64) : [k][k]f64 =
  map (\r -> map (\c -> f64.sum (map2 (*) r c)) (transpose b)) a

-- ==
-- entry: chain
-- gradcheck input { [[[1.0, 0.5], [0.2, 1.0]], [[0.9, -0.1], [0.3, 1.1]], [[1.2, 0.0], [0.4, 0.8]]] }
-- gradcheck input { empty([0][2][2]f64) }
entry chain [n][k] (xs: [n][k][k]f64) : f64 =
  let id = tabulate_2d k k (\i j -> if i == j then 1 else 0)
  in f64.sum (map (\m -> f64.sum (flatten m)) (scan matmul id xs))

-- Two 1×1 matrices a, b: the prefix products are a and ab, summed: a + ab,
-- whose gradient is (1 + b, a).
-- ==
-- entry: chain_values
-- input { [[[2.0]], [[3.0]]] } output { [[[4.0]], [[2.0]]] }
entry chain_values [n][k] (xs: [n][k][k]f64) : [n][k][k]f64 = vjp chain xs 1

-- ==
-- entry: rotation
-- gradcheck input { [[1.0, 0.5], [0.2, 1.0], [0.9, -0.1]] }
entry rotation [n] (xs: [n][2]f64) : f64 =
  let ys = scan (\a b -> [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]]) [1, 0] xs
  in f64.sum (map2 (\y i -> f64.i64 (i + 1) * (y[0] + 2 * y[1])) ys (iota n))

-- A linear recurrence per column, h = decay·h + input, as a scan of
-- affine maps stored as two rows (multipliers, offsets).
-- ==
-- entry: recurrence
-- gradcheck input { [[[0.5, 0.9], [1.0, -2.0]], [[0.8, 0.1], [0.5, 0.25]], [[1.1, 0.7], [-1.0, 3.0]]] }
entry recurrence [n][m] (xs: [n][2][m]f64) : f64 =
  let op (a: [2][m]f64) (b: [2][m]f64) : [2][m]f64 =
    [map2 (*) a[0] b[0], map2 (+) (map2 (*) a[1] b[0]) b[1]]
  let ys = scan op [replicate m 1, replicate m 0] xs
  in f64.sum (map (\y -> f64.sum (map (\h -> h * h) y[1])) ys)

-- ==
-- entry: segmented
-- gradcheck input { [true, false, false, true, false] [[1.0, 2.0], [0.5, -1.0], [3.0, 0.25], [1.5, 1.0], [-2.0, 0.5]] }
entry segmented [n][m] (flags: [n]bool) (xs: [n][m]f64) : f64 =
  let op (f1: bool, a: [m]f64) (f2: bool, b: [m]f64) : (bool, [m]f64) =
    (f1 || f2, if f2 then b else map2 (*) a b)
  let (_, ys) = unzip (scan op (false, replicate m 1) (zip flags xs))
  in f64.sum (map f64.sum ys)

-- The rule's loop differentiated again (a gradient's norm), inside a map,
-- and in a loop's re-executed body.
-- ==
-- entry: gradient_norm
-- gradcheck input { [[[1.0, 0.5], [0.2, 1.0]], [[0.9, -0.1], [0.3, 1.1]], [[1.2, 0.0], [0.4, 0.8]]] }
entry gradient_norm [n][k] (xs: [n][k][k]f64) : f64 =
  let g = vjp chain xs 1
  in f64.sum (map (\m -> f64.sum (map (\r -> f64.sum (map (\x -> x * x) r)) m)) g)

-- ==
-- entry: chains
-- gradcheck input { [[[[1.0, 0.5], [0.2, 1.0]], [[0.9, -0.1], [0.3, 1.1]]], [[[1.2, 0.0], [0.4, 0.8]], [[0.5, 0.5], [-0.5, 1.5]]]] }
entry chains [b][n][k] (xss: [b][n][k][k]f64) : f64 = f64.sum (map chain xss)

-- ==
-- entry: chain_in_loop
-- gradcheck input { [[[1.0, 0.5], [0.2, 1.0]], [[0.9, -0.1], [0.3, 1.1]]] }
entry chain_in_loop [n][k] (xs: [n][k][k]f64) : f64 =
  let (s, _) = loop (s, ys) = (0, xs) for _i < 2 do (s + chain ys, map (map (map (* 0.9))) ys)
  in s

-- Integer rows: affine maps x ↦ a·x + b stored as [a, b], composed by the
-- scan, differentiated in integer arithmetic as forward mode does (no
-- float component to differentiate instead). The gradient was computed
-- independently, with dual numbers in Python, for the cotangent
-- [i + 1, 2i - 1] of row i.
-- ==
-- entry: integer_affine
-- input { [[1i64, 2i64], [3i64, -4i64], [5i64, 6i64], [-2i64, 7i64]] }
-- output { [[565i64, 8i64], [200i64, 9i64], [90i64, 24i64], [60i64, 75i64]] }
-- input { empty([0][2]i64) } output { empty([0][2]i64) }
entry integer_affine [n] (xs: [n][2]i64) : [n][2]i64 =
  let op (a: [2]i64) (b: [2]i64) : [2]i64 = [a[0] * b[0], a[0] * b[1] + a[1]]
  in vjp (scan op [1, 0]) xs (map (\i -> [i + 1, 2 * i - 1]) (iota n))

-- The same in 32 bits (no product here leaves their range).
-- ==
-- entry: integer_affine_i32
-- input { [[1, 2], [3, -4], [5, 6], [-2, 7]] }
-- output { [[565, 8], [200, 9], [90, 24], [60, 75]] }
entry integer_affine_i32 [n] (xs: [n][2]i32) : [n][2]i32 =
  let op (a: [2]i32) (b: [2]i32) : [2]i32 = [a[0] * b[0], a[0] * b[1] + a[1]]
  in vjp (scan op [1, 0]) xs (map (\i -> [i32.i64 i + 1, 2 * i32.i64 i - 1]) (iota n))
