-- Scans long enough that multicore code runs them in many chunks, each
-- waiting for the prefix of the chunk before it (codegen's
-- screma_par and scan_chain: chunks of at most 32768 iterations, handed out in
-- order). Every result is known in closed form, so a chunk that took the
-- wrong prefix, or combined it on the wrong side of a non-commutative
-- operator, shows.
-- ==
-- entry: alternating
-- input { 300000i64 } output { 150000i64 0i64 1i64 1i64 0i64 }
-- input { 65537i64 } output { 32769i64 1i64 0i64 1i64 0i64 }
-- entry: scan_and_sum
-- input { 300000i64 } output { 149850000i64 74925000i64 149850000i64 999i64 }
-- entry: failing_element
-- input { 300000i64 200000i64 } error: Index \[300000\] out of bounds
-- input { 300000i64 300000i64 } output { 44999850000i64 }

-- Composition of affine maps x -> a*x + b, the later map applied last.
def compose (a1: i64, b1: i64) (a2: i64, b2: i64) = (a2 * a1, a2 * b1 + b2)

-- x_i = 1 - x_(i-1) from x_(-1) = 0: 1 at even i, 0 at odd i. Returns the
-- number of ones (the even i below n) and x at n-1, n-2, 65536 and 65535
-- (the last element of the second chunk of 32768 and the first of the
-- third are 65535 and 65536).
entry alternating (n: i64) =
  let (_, xs) = unzip (scan compose (1, 0) (zip (replicate n (-1)) (replicate n 1)))
  in (i64.sum xs, xs[n - 1], xs[n - 2], xs[65536 % n], xs[65535 % n])

-- A scan and a reduction over the same input (one SOAC after fusion):
-- i % 1000 summed over 300 full cycles is 300 * 499500, the first 150000
-- elements are 150 cycles.
entry scan_and_sum (n: i64) =
  let xs = map (\i -> i % 1000) (iota n)
  let s = scan (+) 0 xs
  in (s[n - 1], s[n / 2 - 1], reduce (+) 0 xs, reduce i64.max 0 xs)

-- One element of the scan's input is read out of bounds (at position
-- `bad`, if below n): the run stops with the error instead of waiting for
-- the failed chunk's prefix. Otherwise the sum of 0 .. n-1 is n(n-1)/2.
entry failing_element (n: i64) (bad: i64) =
  let xs = iota n
  let s = scan (+) 0 (map (\i -> xs[if i == bad then n else i]) (iota n))
  in s[n - 1]
