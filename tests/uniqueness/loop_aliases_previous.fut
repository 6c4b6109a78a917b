-- The value for a consumed loop parameter may not alias the value given
-- for an earlier parameter.
-- ==
-- error: aliases previously returned value

def main (n: i64) =
  loop (s, t) = (iota n, iota n) for _i < 2 do
    let t[0] = 1
    in (t, t)
