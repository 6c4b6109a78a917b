-- A failed size coercion shows the value's shape and the type with its
-- sizes' values, as Futhark's does.
-- ==
-- entry: matrix
-- input { [[1,2],[3,4]] 2i64 2i64 } output { [[1,2],[3,4]] }
-- input { [[1,2],[3,4]] 1i64 4i64 } error: Value of \(desugared\) shape \[2\]\[2\] cannot match shape of type "\[1\]\[4\]i32"\.

-- ==
-- entry: pair
-- input { [1,2,3] [1f32,2f32,3f32] 3i64 } output { [1,2,3] [1f32,2f32,3f32] }
-- input { [1,2,3] [1f32,2f32] 3i64 } error: Value of \(desugared\) shape \[2\] cannot match shape of type "\(\[3\]i32, \[3\]f32\)"\.

-- ==
-- entry: unflat
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
-- input { -1i64 -3i64 } error: Cannot unflatten array of shape \[3\] to array of shape \[-1\]\[-3\]

entry matrix [n] [m] (x: [n][m]i32) (a: i64) (b: i64) = x :> [a][b]i32
entry pair (xs: []i32) (ys: []f32) (n: i64) = (xs, ys) :> ([n]i32, [n]f32)
entry unflat n m = unflatten (iota (n * m))
