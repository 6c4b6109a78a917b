def f [n] (xs: [n]i64) : i64 = n + xs[0]
entry main (n: i64) : i64 = f (iota (n+1)) + reduce_comm (+) 0 (iota n) + (assert (n > 0) n)
