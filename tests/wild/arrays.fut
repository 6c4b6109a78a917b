-- Array plumbing: slices with computed bounds and negative strides,
-- concatenation, take/drop/split, flatten/unflatten with coerced sizes,
-- 2-d in-place updates in a loop on a copy, records updated in a loop.
-- ==
-- entry: main
-- input { [1, 2, 3, 4, 5, 6] }
-- output { [2, 3, 4, 5] [6, 4, 2] [1, 2, 3, 4, 5, 6, 1, 2] [[1, 2, 3], [4, 5, 6]] [4, 5, 6] [[0, 1, 2], [1, 2, 3]] 21 6i64 }
-- ==
-- entry: diag
-- input { 3i64 } output { [[1f32, 0f32, 0f32], [0f32, 2f32, 0f32], [0f32, 0f32, 3f32]] }

entry main [n] (xs: [n]i32) =
  let inner = xs[1:n - 1]
  let evens_rev = xs[n - 1::-2]
  let more = xs ++ take 2 xs
  let m = n / 2
  let halves = unflatten (xs :> [2 * m]i32) :> [2][3]i32
  let (_, back) = split (xs :> [3 + 3]i32)
  let grid = copy (replicate 2 (replicate 3 0i32))
  let grid = loop grid for i < 2 do loop grid for j < 3 do grid with [i, j] = i32.i64 (i + j)
  let acc = loop r = {sum = 0, count = 0i64} for x in xs do r with sum = r.sum + x with count = r.count + 1
  in (inner, evens_rev, more, halves, back, grid, acc.sum, acc.count)

entry diag (n: i64) : [n][n]f32 =
  tabulate_2d n n (\i j -> if i == j then f32.i64 (i + 1) else 0)
