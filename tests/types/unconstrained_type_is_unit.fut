-- A type that nothing determines becomes the unit type, as in Futhark:
-- the empty array has no elements whichever type they have, and an unused
-- function's parameter may have any type.
-- ==
-- input { 3i64 } output { 0i64 3i64 }
-- input { 0i64 } output { 0i64 0i64 }

def main (n: i64) : (i64, i64) =
  let (unused, k) = (\(_, i) -> i + 1, n)
  in (length [], k)
