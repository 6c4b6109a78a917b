-- foldl is a sequential left fold; with subtraction the order matters.
-- ==
-- input { [1, 2, 3] } output { -6 321 }
-- input { empty([0]i32) } output { 0 0 }
def main (xs: []i32) = (foldl (-) 0 xs, foldl (\acc d -> acc * 10 + d) 0 (reverse xs))
