-- `f` relies on `g l` having `l` elements; a function whose result has some
-- other size (declared `[]`, so any) does not fit `(n: i64) -> [n]i64`.
-- ==
-- error: size-mismatch.*"n"

def f (g: (n: i64) -> [n]i64) (l: i64) : i64 = (g l)[0]

def main (k: i64) = f (\n : []i64 -> iota (n + 1)) k
