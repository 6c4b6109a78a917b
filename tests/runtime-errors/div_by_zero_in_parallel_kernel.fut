-- A division by a free variable in a loop that is a kernel: the divisor
-- is tested before the kernel runs (on the multicore backend, before the
-- parallel job of the kernel starts), and a zero fails with the
-- division's location; with no iterations nothing fails. The sum of
-- i / 7 for i < 10⁶ is from Python.
-- ==
-- input { 1000000i64 7i64 } output { 71428071429i64 }
-- input { 1000000i64 0i64 } error: division by zero
-- input { 0i64 0i64 } output { 0i64 }
-- input { 5i64 -2i64 } output { -6i64 }

def main (n: i64) (d: i64) : i64 = i64.sum (map (\i -> i / d) (iota n))
