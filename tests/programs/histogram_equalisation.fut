-- Histogram equalisation of an 8-level grey image:
-- lut[v] = (cdf[v] - cdf_min) * (L - 1) / (n - cdf_min), using hist, scan and a gather.
-- ==
-- input { 8i64 [0, 1, 1, 3, 3, 3, 7, 7] }
-- output { [1, 2, 0, 3, 0, 0, 0, 2] [0, 2, 2, 5, 5, 5, 7, 7] }
def main [n] (levels: i64) (img: [n]i32) =
  let h = hist (+) 0 levels (map i64.i32 img) (replicate n 1)
  let cdf = scan (+) 0 h
  let cdf_min = i32.minimum (filter (> 0) cdf)
  let lut = map (\c -> (c - cdf_min) * (i32.i64 levels - 1) / (i32.i64 n - cdf_min)) cdf
  in (h, map (\v -> lut[i64.i32 v]) img)
