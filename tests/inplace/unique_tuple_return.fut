-- A function returning a tuple of two fresh arrays; both are updated afterwards.
-- ==
-- input { 3i64 } output { [9i64, 1i64, 2i64] [0i64, 0i64, 9i64] }
def two (n: i64) : (*[n]i64, *[n]i64) = (iota n, replicate n 0)
def main (n: i64) =
  let (a, b) = two n
  in (a with [0] = 9, b with [n - 1] = 9)
