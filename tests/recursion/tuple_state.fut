-- Recursion on a tuple: the Collatz sequence from 6 is 6 3 10 5 16 8 4 2 1
-- (8 steps); from 1 it takes none; from 27 it takes 111.
-- ==
-- input { 6i64 } output { 1i64 8i64 }
-- input { 1i64 } output { 1i64 0i64 }
-- input { 27i64 } output { 1i64 111i64 }

def collatz (n: i64, steps: i64) : (i64, i64) =
  if n == 1 then (n, steps)
  else collatz (if n % 2 == 0 then n / 2 else 3 * n + 1, steps + 1)

entry main (n: i64) = collatz (n, 0)
