-- Both components of a consumed tuple argument are the same array.
-- ==
-- error: self-aliasing-arg

def first (p: *([]i32, []i32)) = p.0 with [0] = 1

def main (n: i64) =
  let xs = replicate n 0i32
  in first (xs, xs)
