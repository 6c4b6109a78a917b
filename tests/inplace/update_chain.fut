-- Several updates chained with `with`.
-- ==
-- input { 4i64 } output { [7, 0, 8, 9] }
def main (n: i64) = replicate n 0 with [0] = 7 with [2] = 8 with [3] = 9
