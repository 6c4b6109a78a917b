-- A consuming function called repeatedly on the loop state.
-- ==
-- input { 4i64 } output { [3i64, 3i64, 3i64, 0i64] }
def bump [n] (xs: *[n]i64) (i: i64) : *[n]i64 = xs with [i] = xs[i] + 1
def main (n: i64) =
  loop xs = replicate n 0 for _k < 3 do
    loop xs for i < n - 1 do bump xs i
