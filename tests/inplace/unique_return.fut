-- A function returning a fresh (*) array can be updated by the caller.
-- ==
-- input { 3i64 } output { [1, -1, 1] }
def ones (n: i64) : *[n]i32 = replicate n 1
def main (n: i64) = ones n with [1] = -1
