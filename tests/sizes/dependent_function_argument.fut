-- A function whose result size is its argument fits a parameter of that
-- dependent type, whatever its parameter is called.
-- ==
-- input { 4i64 } output { 6i64 3i64 }

def total (g: (n: i64) -> [n]i64) (l: i64) : (i64, i64) = (i64.sum (g l), length (g (l - 1)))

def main (k: i64) = total (\m -> iota m) k
