-- iterate on a tuple state: Fibonacci numbers.
-- ==
-- input { } output { 55i64 89i64 }
def main = iterate 10 (\(a, b) -> (b, a + b)) (0i64, 1i64)
