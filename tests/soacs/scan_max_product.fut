-- Running maximum and running product with scan.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6] } output { [3, 3, 4, 4, 5, 9, 9, 9] [3, 3, 12, 12, 60, 540, 1080, 6480] }
-- input { [1, 2, 3, 4, 5] } output { [1, 2, 3, 4, 5] [1, 2, 6, 24, 120] }
def main (xs: []i32) = (scan i32.max i32.lowest xs, scan (*) 1 xs)
