-- A loop parameter cannot have a function type.
-- ==
-- error: higher-order-loop
def main (x: i32) =
  let f = loop f = (\(y: i32) -> y) for _i < 3 do (\y -> f y + 1)
  in f x
