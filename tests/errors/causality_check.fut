-- A size is needed (by the lambda's type) before the argument that computes
-- it is evaluated: arguments are evaluated last to first, so the lambda
-- comes before `filter`.
-- ==
-- error: causality-check
def apply [n] (xs: [n]i32) (f: [n]i32 -> i32) : i32 = f xs
def main (ys: []i32) = apply (filter (> 0) ys) (\zs -> zs[0])
