-- The same loop with `x`'s size fixed by its annotation: the body's first
-- result is one element shorter.
-- ==
-- error: size-mismatch.*do not match
def main [n] (a: [n]i32) (b: [n]i32) (k: i32) =
  loop (x: [n]i32, y) = (a, b) for _i < k do (y[1:], x)
