-- A dependent function applied to sizes keeps its type's spelling: `total 2
-- 3` has type `[2 + 3]i32 -> i64`, which gives `[n + m]` n = 2 and m = 3
-- (and likewise for a product), as Futhark unifies the size expressions.
-- ==
-- entry: sums
-- input { [1, 2] [3, 4, 5] } output { 38i64 }
def split_at [n] [m] (k: [n + m]i32 -> i64) (a: [n]i32) (b: [m]i32) = k (a ++ b)

def total n m (xs: [n + m]i32) = n * 10 + m + i64.i32 (reduce (+) 0 xs)

entry sums = split_at (total 2 3)

-- ==
-- entry: products
-- input { [[1, 2, 3], [4, 5, 6]] } output { 224i64 }
def rows [n] [m] (k: [n * m]i32 -> i64) (a: [n][m]i32) = k (flatten a)

def count r c (xs: [r * c]i32) = r * 100 + c + i64.i32 (reduce (+) 0 xs)

entry products = rows (count 2 3)
