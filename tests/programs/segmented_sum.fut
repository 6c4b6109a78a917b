-- Segmented sums given segment lengths: build flags with scatter, then a segmented scan,
-- and read the last element of each segment.
-- ==
-- input { [2i64, 3i64, 1i64] [1, 2, 3, 4, 5, 6] } output { [3, 12, 6] }
-- input { [1i64, 1i64] [7, -7] } output { [7, -7] }
def main [m][n] (lens: [m]i64) (vs: [n]i32) =
  let ends = scan (+) 0 lens
  let starts = map2 (-) ends lens
  let flags = scatter (replicate n false) starts (replicate m true)
  let (_, sums) =
    unzip (scan (\(f1, x) (f2, y) -> (f1 || f2, if f2 then y else x + y))
                (false, 0) (zip flags vs))
  in map (\e -> sums[e - 1]) ends
