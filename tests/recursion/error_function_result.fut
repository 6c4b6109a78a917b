-- A recursive function may not return a function.
-- ==
-- error: recursive-higher-order-return

def adder (n: i64) : i64 -> i64 =
  if n == 0 then (\x -> x) else (\x -> adder (n - 1) x + 1)

entry main (x: i64) = adder 3 x
