-- The body checks with the initial sizes (both `[n]`), but `b` takes a
-- filtered array, so its size varies while `map2` needs it equal to `a`'s,
-- which does not: the body's result does not fit the parameter.
-- ==
-- error: size-mismatch.*Loop body does not have expected type

def main [n] (xs: [n]i32) (ys: [n]i32) =
  loop (a, b) = (xs, ys) for _i < 3 do
    let c = filter (> 0) (map2 (+) a b)
    in (a, c)
