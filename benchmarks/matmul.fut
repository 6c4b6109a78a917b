-- Dense matrix multiplication, C = A·B, each element a dot product of a
-- row of A and a column of B. Single precision.
-- ==
-- nobench input {
--   [[-0.932413697f32, -0.701270461f32, 0.232104108f32], [-0.135534257f32, 0.0253559705f32, 0.791084886f32]]
--   [[-0.735953391f32, -0.545480728f32], [0.306216866f32, -0.955420971f32], [-0.994769037f32, -0.290074855f32]] }
-- output { [[0.240582198f32, 1.11129463f32], [-0.679435432f32, -0.17976813f32]] }
-- notest input @ data/matmul-1024.in
-- notest input @ data/matmul-2048.in

def main [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
