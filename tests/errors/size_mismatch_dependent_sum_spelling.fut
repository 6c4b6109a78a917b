-- `total 2 3` fixes n = 2 and m = 3: an array of 3 elements is not [n].
-- ==
-- error: size-mismatch.*do not match
def split_at [n] [m] (k: [n + m]i32 -> i64) (a: [n]i32) (b: [m]i32) = k (a ++ b)

def total n m (xs: [n + m]i32) = n * 10 + m + i64.i32 (reduce (+) 0 xs)

def main = split_at (total 2 3) [1, 2, 3] [4, 5]
