-- The size `m` of the local function's parameter would become part of the
-- type of `z`, which is bound outside `h`.
-- ==
-- error: "m".*scope-violation

def g z =
  let h (m: i64) (ys: [m]i32) = map2 (+) ys z
  in h

def main (xs: []i32) = g xs (length xs) xs
