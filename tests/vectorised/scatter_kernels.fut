-- The loop of a `scatter` is a kernel (`ogham_imp::lower::scatter`): per
-- iteration the map function, then per destination a store where every
-- index is inside the destination's shape, an element or a row element
-- by element. Indices out of range, below zero or past the end in any
-- dimension, are skipped. Expected values worked out by hand.

-- At [4, -1, 0, 7, 2] the doubled values [2, 4, 6, 8, 10]: -1 and 7 are
-- out of range.
-- ==
-- entry: elements
-- input { [1f32, 2f32, 3f32, 4f32, 5f32] [4i64, -1i64, 0i64, 7i64, 2i64] }
-- output { [6f32, 0f32, 10f32, 0f32, 2f32] }
entry elements [n] (xs: [n]f32) (is: [n]i64) : [n]f32 = scatter (replicate n 0) is (map (* 2) xs)

-- Rows to rows 2, 0 and 5 (out of range).
-- ==
-- entry: rows
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] [2i64, 0i64, 5i64] }
-- output { [[3f32, 4f32], [0f32, 0f32], [1f32, 2f32]] }
entry rows [n][m] (xs: [n][m]f32) (is: [n]i64) : [n][m]f32 = scatter (replicate n (replicate m 0)) is xs

-- Two indices: (0, 1) in range, (2, -1) and (3, 0) out of range.
-- ==
-- entry: pairs
-- input { [1f32, 2f32, 3f32] [0i64, 2i64, 3i64] [1i64, -1i64, 0i64] }
-- output { [[0f32, 1f32, 0f32], [0f32, 0f32, 0f32], [0f32, 0f32, 0f32]] }
entry pairs [n] (xs: [n]f32) (is: [n]i64) (js: [n]i64) : [n][n]f32 =
  scatter_2d (replicate n (replicate n 0)) (zip is js) xs

-- Indices and values computed in the function: i·7 mod 5 is a
-- permutation, x_i² written there: [1, 16, 4, 25, 9].
-- ==
-- entry: computed
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [1i64, 16i64, 4i64, 25i64, 9i64] }
entry computed [n] (xs: [n]i64) : [n]i64 =
  scatter (replicate n 0) (map (\i -> (i * 7) % n) (iota n)) (map (\i -> xs[i] * xs[i]) (iota n))

-- Large enough to run in parallel chunks: i written at n - 1 - i, so
-- every element is its own reversed index.
-- ==
-- entry: reversed
-- input { 100000i64 }
-- output { true 99999i64 }
entry reversed (n: i64) : (bool, i64) =
  let r = scatter (replicate n 0) (map (\i -> n - 1 - i) (iota n)) (iota n)
  in (and (map2 (\i x -> x == n - 1 - i) (iota n) r), r[0])
