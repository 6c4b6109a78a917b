-- Stream compaction by hand: flags, an exclusive prefix sum of the flags as target
-- positions, and a scatter into an array of the right size (out-of-range index -1 for dropped elements).
-- ==
-- input { [5, -1, 3, 0, -7, 8] } output { [5, 3, 8] }
-- input { [-1, -2] } output { empty([0]i32) }
def main [n] (xs: [n]i32) =
  let flags = map (\x -> if x > 0 then 1 else 0) xs
  let incl = scan (+) 0 flags
  let m = if n == 0 then 0 else incl[n - 1]
  let idxs = map2 (\f s -> if f == 1 then s - 1 else -1) flags incl
  in scatter (replicate m 0) idxs xs
