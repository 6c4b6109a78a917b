-- A for loop's bound is evaluated before the loop: a loop parameter of
-- the same name does not shadow it there (rsbench's fast_forward_LCG).
-- With n = 3 the loop runs 3 times from (6, 0): (5, 0), (4, 1), (3, 3).
-- ==
-- input { 3i64 } output { 3i64 3i64 }
-- input { 0i64 } output { 0i64 0i64 }
def main (n: i64) = loop (n, acc) = (n * 2, 0) for i < n do (n - 1, acc + i)

-- The same for the array of a for-in loop: `xs` in `for x in xs` is the
-- argument, not the loop parameter; the sum of [1, 2, 3] added to 10.
-- ==
-- entry: for_in
-- input { [1i64, 2i64, 3i64] } output { 16i64 }
entry for_in (xs: []i64) : i64 = (loop (xs, s) = (map (* 10) xs, 10) for x in xs do (xs, s + x)).1
