-- A size is needed (by the lambda's type) before the argument that computes it is evaluated.
-- ==
-- error: causality-check
def apply [n] (f: [n]i32 -> i32) (xs: [n]i32) : i32 = f xs
def main (ys: []i32) = apply (\zs -> zs[0]) (filter (> 0) ys)
