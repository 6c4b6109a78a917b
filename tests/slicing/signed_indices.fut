-- Indices may be of any signed integer type; slice bounds stay i64.
-- ==
-- entry: read
-- input { [10, 20, 30, 40] 1i32 2i8 3i16 } output { 20 30 40 [20, 30] }
-- input { [10, 20, 30, 40] 4i32 0i8 0i16 } error: .
-- input { [10, 20, 30, 40] -1i32 0i8 0i16 } error: .
entry read (xs: []i32) (i: i32) (j: i8) (k: i16) =
  (xs[i], xs[j], xs[k], xs[i64.i32 i:i64.i8 j + 1])

-- ==
-- entry: write
-- input { [0, 0, 0] 2i32 1i8 } output { [0, 8, 7] }
entry write (xs: *[]i32) (i: i32) (j: i8) =
  let xs[i] = 7
  in xs with [j] = 8

-- ==
-- entry: matrix
-- input { [[1, 2, 3], [4, 5, 6]] 1i32 2i16 } output { 6 [[1, 2, 3], [4, 5, 0]] }
entry matrix (m: [][]i32) (i: i32) (j: i16) =
  let m2 = copy m
  let m2[i, j] = 0
  in (m[i, j], m2)

-- An index literal that nothing else constrains is fine, and an index
-- variable keeps its own type.
-- ==
-- entry: loop_index
-- input { [1, 2, 3, 4] } output { 10 4 }
entry loop_index (xs: []i32) =
  let n = i32.i64 (length xs)
  let (s, i) = loop (s, i) = (0, 0) while i < n do (s + xs[i], i + 1)
  in (s, i)
