-- A returned function that captures an array.
-- ==
-- input { [5, 6, 7] 2i64 } output { 7 }
def lookup [n] (xs: [n]i32) : i64 -> i32 = \i -> xs[i]
def main (xs: []i32) (i: i64) = lookup xs i
