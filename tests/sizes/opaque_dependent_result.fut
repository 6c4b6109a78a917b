-- A non-polynomial size in the result of a function with a named
-- parameter (`[n/2]`) is substituted at each application: `half m` has
-- size `m/2`, which is what `g m` expects.
-- ==
-- input { 7i64 } output { 3 }
-- input { 10i64 } output { 5 }
-- input { 0i64 } output { 0 }

def half (n: i64) : [n/2]i32 = replicate (n/2) 1

def g (k: i64) (xs: [k/2]i32) : i32 = i32.sum xs

def main (m: i64) = let ys = half m in g m ys
