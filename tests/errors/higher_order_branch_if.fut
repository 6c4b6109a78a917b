-- A function cannot be returned from an if.
-- ==
-- error: higher-order-branch
def main (b: bool) (x: i32) =
  let f = if b then (\y -> y + 1) else (\y -> y * 2)
  in f x
