-- The body uses the sizes of `a` and `b` as one size (`zip`), but their
-- initial values have the sizes `n` and `m`, which may differ.
-- ==
-- error: size-mismatch.*Initial loop values do not have expected type

def main [n] [m] (xs: [n]i32) (ys: [m]i32) =
  loop (a, b) = (xs, ys) while length a > 1 do
    let (a', b') = unzip (filter (\(x, _) -> x > 0) (zip a b))
    in (a'[1:], b'[1:])
