-- sized n xs changes the static size; it fails at run time when the size is wrong.
-- ==
-- input { 3i64 [1, 2, 3] } output { [1, 2, 3] }
-- input { 2i64 [1, 2, 3] } error: .
def main (n: i64) (xs: []i32) : [n]i32 = sized n xs
