-- Dense matrix multiplication with map, transpose and reduce.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10], [11, 12]] }
-- output { [[58, 64], [139, 154]] }
-- input { [[1, 0], [0, 1]] [[5, 6], [7, 8]] } output { [[5, 6], [7, 8]] }
def dotprod [n] (xs: [n]i32) (ys: [n]i32) : i32 = reduce (+) 0 (map2 (*) xs ys)

def matmul [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> dotprod row col) (transpose b)) a

def main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) = matmul a b
