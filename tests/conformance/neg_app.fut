-- Unary minus and application: f -x is a subtraction; -f x negates.
-- ==
-- input { 5 } output { 4 -6 -4 1024 2147483647 }
def inc (x: i32) = x + 1
def main (x: i32) =
  let f = 9
  in (f -x, -inc x, inc (-x), 2 ** 10, -1 >>> 1)
