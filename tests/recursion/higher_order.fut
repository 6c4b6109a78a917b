-- A recursive higher-order function, its function argument passed
-- unchanged; the lambda uses a variable of the caller (k).
-- k=1, x=0: 0 -> 1 -> 3 -> 7 after three steps.
-- k=0, x=1: doubling 10 times gives 1024.
-- ==
-- input { 1 3i64 0 } output { 7 }
-- input { 0 10i64 1 } output { 1024 }
-- input { 5 0i64 9 } output { 9 }

def iterate_n (f: i32 -> i32) (n: i64) (x: i32) : i32 =
  if n == 0 then x else iterate_n f (n - 1) (f x)

entry main (k: i32) (n: i64) (x: i32) = iterate_n (\y -> y * 2 + k) n x
