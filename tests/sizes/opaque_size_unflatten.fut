-- Sizes written as expressions that are not polynomials (`i64.i32 n`,
-- `isqrt k`) are computed where they are needed: `unflatten` to
-- `[i64.i32 n][i64.i32 m]` knows both sizes from the coercion's spelling,
-- and `[isqrt k * isqrt k]` unflattens to a square.
-- ==
-- entry: rows
-- input { 2 3 [1, 2, 3, 4, 5, 6] } output { [6, 15] [[1, 4], [2, 5], [3, 6]] }
-- input { 2 3 [1, 2, 3, 4, 5] } error: .
-- input { 3 -2 [1, 2, 3, 4, 5, 6] } error: .
-- input { 3 2147483647 [1, 2, 3, 4, 5, 6] } error: .
-- ==
-- entry: square
-- input { [1i64, 2, 3, 4, 5, 6, 7, 8, 9] } output { [[1i64, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- input { [1i64, 2, 3, 4, 5, 6, 7, 8] } error: .

entry rows (n: i32) (m: i32) (xs: []i32) =
  let xss = unflatten (sized (i64.i32 n * i64.i32 m) xs)
  in (map i32.sum xss, transpose xss)

def isqrt (x: i64) : i64 = i64.f64 (f64.sqrt (f64.i64 x))

entry square [k] (xs: [k]i64) : [][]i64 =
  unflatten (xs :> [isqrt k * isqrt k]i64)
