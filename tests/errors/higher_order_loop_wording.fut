-- Futhark's wording for a loop parameter of function type.
-- ==
-- error: higher-order-loop.*a loop parameter may not be of function type
def main (n: i64) (y: i64) =
  let h = loop h = (\(x: i64) -> x) for _i < n do (\(x: i64) -> h x + 1)
  in h y
