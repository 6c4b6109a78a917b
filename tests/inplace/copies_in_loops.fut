-- Copies made in a loop's body, a lambda or a parallel task take their
-- memory from the region's allocation site, which hands a block out again
-- once nothing else references it. A copy must never land in a block that
-- is still in use: here the previous iteration's array (carried as `cur`)
-- and the one before it (`prev`) are both alive when the next copy is
-- made and updated in place, and each row of the map is a copy of `xs`
-- updated at its own index while the others' copies are in the result.
--
-- Worked out by hand: iteration i adds 100 to element i of a copy of
-- `cur`, so after 3 iterations `cur` has 100 added to elements 0, 1 and 2
-- and `prev` to elements 0 and 1; row i of the map is `xs` with element i
-- negated.
-- ==
-- input { 3i64 [0i64, 1i64, 2i64, 3i64, 4i64] }
-- output { [100i64, 101i64, 102i64, 3i64, 4i64]
--          [100i64, 101i64, 2i64, 3i64, 4i64]
--          [[0i64, 1i64, 2i64], [0i64, -1i64, 2i64], [0i64, 1i64, -2i64]] }
-- input { 0i64 [7i64] }
-- output { [7i64] [7i64] empty([0][3]i64) }

def main [m] (n: i64) (xs: [m]i64) : ([m]i64, [m]i64, [n][3]i64) =
  let (cur, prev) =
    loop (cur, prev) = (copy xs, copy xs) for i < n do
      let next = copy cur
      let next[i % m] = next[i % m] + 100
      in (next, cur)
  let ys = take 3 (concat xs (replicate 3 0))
  let rows = map (\i -> let c = copy ys
                        let c[i % 3] = -c[i % 3]
                        in c) (iota n)
  in (cur, prev, rows)
