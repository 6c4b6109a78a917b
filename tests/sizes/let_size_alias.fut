-- A name bound to a size expression stands for that expression when it
-- goes out of scope: the body's type [m]i64 is [n+1]i64 outside.
-- ==
-- input { 2i64 } output { [0i64, 1i64, 2i64] }
-- input { 0i64 } output { [0i64] }
def main (n: i64) : [n + 1]i64 =
  let m = n + 1
  in iota m
