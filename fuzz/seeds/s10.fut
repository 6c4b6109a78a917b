entry main (n: i64) (x: u8) : []u8 =
  let xs = iota n |> map u8.i64
  in xs[1:n-1] ++ [x] ++ reverse xs
