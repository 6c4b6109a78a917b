-- Brute-force two-sum: the lexicographically smallest pair i < j with xs[i] + xs[j] == target,
-- or (-1, -1) if there is none. All pairs are examined in parallel.
-- ==
-- input { [2, 7, 11, 15] 9 } output { 0i64 1i64 }
-- input { [3, 2, 4] 6 } output { 1i64 2i64 }
-- input { [1, 2, 3] 100 } output { -1i64 -1i64 }
-- input { [5, 1, 5, 3] 8 } output { 0i64 3i64 }
def lexmin (i1: i64, j1: i64) (i2: i64, j2: i64) =
  if i1 < i2 || (i1 == i2 && j1 <= j2) then (i1, j1) else (i2, j2)

def main [n] (xs: [n]i32) (target: i32) =
  let cands = tabulate_2d n n (\i j ->
                if i < j && xs[i] + xs[j] == target then (i, j) else (n, n))
  let (i, j) = reduce lexmin (n, n) (flatten cands)
  in if i == n then (-1, -1) else (i, j)
