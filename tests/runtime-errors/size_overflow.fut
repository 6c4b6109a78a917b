-- A size computed from run-time values (here the product n*m of a
-- coercion, and the shape of unflatten's reshape) is checked for overflow:
-- a product that wraps around to the array's real length must not pass the
-- size check, or the result would claim 3 x 6148914691236517206 elements
-- over a 2-element buffer (an out-of-bounds read in compiled code).
-- ==
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] 1i64 2i64 } output { 6 }
-- input { 3i64 6148914691236517206i64 [1, 2] 2i64 5i64 } error: overflow
-- input { 4611686018427387904i64 4i64 empty([0]i32) 1i64 1i64 } error: overflow
-- input { -2i64 -3i64 [1, 2, 3, 4, 5, 6] 0i64 0i64 } error: .
entry main (n: i64) (m: i64) (xs: []i32) (i: i64) (j: i64) : i32 =
  let yss = unflatten (xs :> [n*m]i32)
  in yss[i, j]
