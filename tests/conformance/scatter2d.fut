-- scatter_2d and reduce_by_index with a tuple-valued operator.
-- ==
-- input { } output { [[1, 0], [0, 2]] [3, 0, 9] [1, 0, 2] }
def main =
  let m = scatter_2d (replicate 2 (replicate 2 0)) [(0, 0), (1, 1), (5, 5)] [1, 2, 3]
  let (s, c) = unzip (reduce_by_index (replicate 3 (0, 0)) (\(a, b) (x, y) -> (a + x, b + y)) (0, 0)
                                      [0, 2, 2, 0] [(1, 1), (4, 1), (5, 1), (2, 0)])
  in (m, s, c)
