-- `a` and `b` are the same array (the local `t`, now out of scope):
-- updating `a` consumes `b` too.
-- ==
-- error: Using variable "b", which aliases variable "t", but this was consumed

def main (n: i64) =
  let (a, b) = let t = iota n in (t, t)
  let a[0] = 1
  in b
