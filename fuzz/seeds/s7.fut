entry main (n: i64) (x: i32) : [][]i32 =
  let m = tabulate_2d n n (\i j -> i32.i64 (i + j) + x)
  in transpose m
