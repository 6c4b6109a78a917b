-- Arguments are evaluated last to first, so the size of the filtered array
-- is known before the lambda whose type needs it.
-- ==
-- input { [3, -1, 2, -5] } output { 5 }
-- input { [-1] } output { 0 }

def apply [n] (f: [n]i32 -> i32) (xs: [n]i32) : i32 = f xs

def main (ys: []i32) = apply (\zs -> reduce (+) 0 zs) (filter (> 0) ys)
