-- Run-length encoding: mark the start of each run, compact the start positions with filter,
-- and compute run lengths as differences of consecutive starts.
-- ==
-- input { [1, 1, 2, 2, 2, 3, 1, 1] } output { [1, 2, 3, 1] [2i64, 3i64, 1i64, 2i64] }
-- input { [7] } output { [7] [1i64] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i64) }
def main [n] (xs: [n]i32) =
  let starts = filter (\i -> i == 0 || xs[i] != xs[i - 1]) (iota n)
  let k = length starts
  let ends = map (\j -> if j == k - 1 then n else starts[j + 1]) (indices starts)
  in (map (\s -> xs[s]) starts, map2 (-) ends starts)
