-- A local function cannot see itself (local functions are not recursive).
-- ==
-- error: unknown-name|not-supported-yet
def main (x: i32) =
  let f (y: i32) : i32 = if y == 0 then 0 else f (y - 1)
  in f x
