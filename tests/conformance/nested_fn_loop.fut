-- Nested loops with a local function, then more lets after the loop.
-- ==
-- input { 4i64 } output { [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]] 48 }
def main (n: i64) =
  let mk (i: i64) (j: i64) : i32 = i32.i64 (i + j)
  let m = loop acc = replicate n (replicate n 0) for i < n do
            loop acc for j < n do
              acc with [i, j] = mk i j
  let total = i32.sum (flatten m)
  in (m, total)
