-- Neighbour differences with slices whose sizes are computed from n.
-- ==
-- input { [1, 4, 9, 16] } output { [3, 5, 7] [16, 9, 4] [2, 2] }
def main [n] (xs: [n]i32) =
  let d = map2 (-) xs[1:] xs[:n-1]
  let d2 = map2 (-) d[1:] d[:n-2]
  in (d, xs[n-1:0:-1], d2)
