-- In-place updates of a matrix in nested loops.
-- ==
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }
def main (n: i64) (m: i64) =
  loop a = replicate n (replicate m 0) for i < n do
    loop a for j < m do a with [i, j] = i * 10 + j
