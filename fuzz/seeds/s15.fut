entry main (n: i64) : []i64 = flatten (map (\i -> map (+i) (iota 2)) (iota (n*2)))
