-- Both components of `pair`'s result share one array.
-- ==
-- error: Using variable "v", which aliases result of applying "pair", but this was consumed

def pair (n: i64) : ([]i64, []i64) =
  let x = iota n
  in (x, x)

def main (n: i64) =
  let (u, v) = pair n
  let u[0] = 7
  in v
