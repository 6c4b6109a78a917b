-- A recursive function with a function parameter must be applied to all its arguments.
-- ==
-- error: recursive-call-unsaturated

def twice_until (n: i64) (f: i32 -> i32) (x: i32) : i32 =
  if n == 0 then x else (twice_until (n - 1) f) (f (f x))

entry main (x: i32) = twice_until 3 (+1) x
