-- Level-synchronous BFS on an edge list, iterating until no change.
-- ==
-- input { 5i64 [0i64, 1i64, 1i64, 3i64] [1i64, 2i64, 3i64, 4i64] }
-- output { [0, 1, 2, 2, 3] }
def main (n: i64) (src: []i64) (dst: []i64) =
  let dist = replicate n (-1i32) with [0] = 0
  let (dist, _) =
    loop (dist, changed) = (dist, true) while changed do
      let cand = map2 (\s d -> if dist[s] >= 0 && dist[d] < 0 then (d, dist[s] + 1) else (-1, 0)) src dst
      let (is, vs) = unzip cand
      let dist' = reduce_by_index (copy dist) (\a b -> if a < 0 then b else if b < 0 then a else i32.min a b) (-1) is vs
      in (dist', any (\(i, _) -> i >= 0) cand)
  in dist
