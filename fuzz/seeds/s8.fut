entry main (n: i64) : []i32 =
  let dest = replicate 5 0i32
  in hist (+) 0 5 (map (% 5) (iota n)) (map i32.i64 (iota n))
