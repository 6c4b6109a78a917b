-- Integer `**` with a negative exponent is a run-time error on every
-- backend (the interpreter's ogham-prim semantics); non-negative ones work.
-- ==
-- input { 2i32 -1i32 } error: negative exponent
-- input { 2i32 10i32 } output { 1024i32 }
-- input { -3i32 3i32 } output { -27i32 }

def main (x: i32) (k: i32) : i32 =
  x ** k
