-- Dot product, matrix multiplication, and a histogram.
-- ==
-- entry: dot
-- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] } output { 32f32 }
entry dot [n] (xs: [n]f32) (ys: [n]f32) : f32 = f32.sum (map2 (*) xs ys)

-- ==
-- entry: matmul
-- input { [[1,2],[3,4]] [[5,6],[7,8]] } output { [[19,22],[43,50]] }
entry matmul [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> i32.sum (map2 (*) row col)) (transpose b)) a

-- ==
-- entry: histo
-- input { 3i64 [0i64, 2i64, 2i64, 1i64, 2i64, 7i64] } output { [1i32, 1i32, 3i32] }
entry histo (k: i64) (is: []i64) : [k]i32 = hist (+) 0 k is (map (const 1) is)
