-- Concatenation has size n+m, usable as a declared return size.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [1, 2, 3, 4, 5] }
def app [n][m] (xs: [n]i32) (ys: [m]i32) : [n+m]i32 = xs ++ ys
def main (xs: []i32) (ys: []i32) = app xs ys
