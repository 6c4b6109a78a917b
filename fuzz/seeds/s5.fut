entry main (n: i64) (k: i32) : []i32 =
  let xs = replicate n 0i32
  let xs = loop xs for i < n do xs with [i] = i32.i64 i * k
  in filter (\x -> x % 2 == 0) xs
