-- Segmented prefix sum with flags, via a scan on pairs.
-- ==
-- input { [1, 2, 3, 4, 5, 6] [true, false, false, true, false, true] }
-- output { [1, 3, 6, 4, 9, 6] }
def segmented_scan [n] 't (op: t -> t -> t) (ne: t) (flags: [n]bool) (vals: [n]t) : [n]t =
  let pairs = scan (\(v1, f1) (v2, f2) -> (if f2 then v2 else op v1 v2, f1 || f2))
                   (ne, false) (zip vals flags)
  let (res, _) = unzip pairs
  in res
def main (xs: []i32) (fs: []bool) = segmented_scan (+) 0 fs xs
