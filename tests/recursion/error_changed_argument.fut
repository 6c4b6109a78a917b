-- The function argument of a recursive call must be the parameter itself.
-- ==
-- error: recursive-call-changed-argument

def compose_n (n: i64) (f: i32 -> i32) (x: i32) : i32 =
  if n == 0 then f x else compose_n (n - 1) (\y -> f (f y)) x

entry main (x: i32) = compose_n 2 (+1) x
