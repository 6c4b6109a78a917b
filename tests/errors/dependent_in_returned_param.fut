-- `compose`'s lifted `'^b` may stand for `iota`'s `[n]i64`, but then the
-- function it returns takes a `[n]i64 -> c` for an `n` that no caller can
-- know.
-- ==
-- error: Cannot apply "compose" to "iota".*Existential size would appear in function parameter

def compose '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)

def main (k: i64) =
  let h = compose iota
  in h (\xs -> length xs) k
