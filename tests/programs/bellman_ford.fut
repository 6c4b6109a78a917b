-- Single-source shortest paths with Bellman-Ford: n-1 rounds, each relaxing all edges in
-- parallel with reduce_by_index (min). Unreachable nodes keep the value "inf" = 1000000000.
-- ==
-- input { 5i64 [0i64, 0i64, 2i64, 1i64, 2i64] [1i64, 2i64, 1i64, 3i64, 3i64] [4, 1, 2, 1, 5] }
-- output { [0, 3, 1, 4, 1000000000] }
def inf : i32 = 1000000000

def main [m] (n: i64) (src: [m]i64) (dst: [m]i64) (w: [m]i32) =
  let d0 = tabulate n (\i -> if i == 0 then 0 else inf)
  in loop d = d0 for _i < n - 1 do
       let cand = map2 (\u wt -> if d[u] < inf then d[u] + wt else inf) src w
       in reduce_by_index (copy d) i32.min inf dst cand
