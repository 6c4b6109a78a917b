entry main (n: i64) : [n]i64 = scan (+) 0 (map (*2) (iota n))
