-- One let-bound size used twice in the pattern, and a size shared by an
-- array and a function in the pattern.
-- ==
-- input { 3i64 } output { 3i64 2i64 [false, false] }
def main (n: i64) =
  let [k] (xss: [k][k]i64) = replicate n (iota n)
  let [m] (_: [m]i32, f: [m]bool -> [m]bool) =
    (replicate 2 0, \(bs: [2]bool) -> map (\b -> !b) bs)
  in (k + xss[0, 0], m, f (replicate m true))
