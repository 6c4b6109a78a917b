-- A function cannot be returned from a match.
-- ==
-- error: higher-order-branch
def main (k: i32) (x: i32) =
  let f = match k
          case 0 -> (\(y: i32) -> y + 1)
          case _ -> (\(y: i32) -> y * 2)
  in f x
