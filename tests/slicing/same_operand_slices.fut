-- Slices with the same non-polynomial bounds have the same size, so they
-- can be zipped without a coercion. With i = 0 and j = 2 the bounds are
-- 2 and 5: [3, 4, 5] and [30, 40, 50].
-- ==
-- input { [1, 2, 3, 4, 5, 6] [10, 20, 30, 40, 50, 60] 0i64 2i64 }
-- output { [6, 8, 10] }

def f (x: i64) = x + 2
def g (x: i64) = x * 2 + 1

def main [n] (xs: [n]i32) (ys: [n]i32) (i: i64) (j: i64) =
  map (\(x, y) -> x + y / 10) (zip xs[(f i):(g j)] ys[(f i):(g j)])
