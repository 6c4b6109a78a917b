-- A recursive function with a function parameter may not be used as a value in its own body.
-- ==
-- error: recursive-higher-order-use

def apply_n (n: i64) (f: i32 -> i32) (x: i32) : i32 =
  let again = apply_n
  in if n == 0 then x else again (n - 1) f (f x)

entry main (x: i32) = apply_n 2 (+1) x
