-- A recursion deeper than the stack allows fails with an error, located
-- at the recursive function, rather than crashing: compiled code checks
-- the stack on entry to a recursive function (a thread's stack is
-- RLIMIT_STACK long, 8 MiB by default, and a call here takes some tens of
-- bytes, so 10^8 calls never fit), also on the worker threads of a
-- parallel map; the interpreter measures its own stack alike. 3000
-- calls fit everywhere.
-- ==
-- entry: sum_to
-- input { 3000i64 } output { 4501500i64 }
-- input { 100000000i64 }
-- error: Stack exhausted: the recursion is too deep(.|\n)*deep_recursion.fut:29:

-- ==
-- entry: sums_to
-- input { [3i64, 3000i64] } output { [6i64, 4501500i64] }
-- input { [3i64, 100000000i64, 4i64] }
-- error: Stack exhausted: the recursion is too deep(.|\n)*deep_recursion.fut:29:

-- A failure at the bottom of a deep recursion reports its first call
-- sites and how many more there were (each of the 3000 calls on the way
-- out used to be appended to the message, quadratic in the depth).
-- ==
-- entry: fail_deep
-- input { [1i64, 2i64] 3i64 } output { 4i64 }
-- input { [1i64, 2i64] 3000i64 }
-- error: Index \[5\] out of bounds(.|\n)*deep_recursion.fut:35:(.|\n)*and [0-9]+ more

def total (n: i64) : i64 = if n <= 0 then 0 else n + total (n - 1)

entry sum_to (n: i64) = total n

entry sums_to (ns: []i64) = map total ns

def dig (xs: []i64) (n: i64) : i64 = if n == 0 then xs[5] else 1 + dig xs (n - 1)

entry fail_deep (xs: []i64) (n: i64) = if n < 5 then n + 1 else dig xs n
