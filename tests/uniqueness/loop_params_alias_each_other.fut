-- Two consumed loop parameters may not receive the same array.
-- ==
-- error: loop-parameter-aliases-other

def main (n: i64) =
  let (p, q) =
    loop (p: *[]i32, q: *[]i32) = (replicate n 0, replicate n 1) for _i < 2 do
      let p[0] = 2
      in (p, p)
  in (p, q)
