-- A local function's result that aliases nothing may be updated.
-- ==
-- input { 3i64 } output { [84i64, 2i64, 4i64] }

def main (n: i64) =
  let mk (k: i64) = iota k
  let a = mk n
  let a[0] = 42
  in map (\x -> x * 2) a
