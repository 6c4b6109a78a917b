entry main (n: i64) : [n]i64 = scatter (replicate n 0) (iota n) (reverse (iota n))
