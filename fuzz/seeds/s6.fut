entry main (n: i64) : (i64, [n]i64) =
  let (a, b) = unzip (map (\i -> (i, i * i)) (iota n))
  in (reduce (+) 0 a, b)
