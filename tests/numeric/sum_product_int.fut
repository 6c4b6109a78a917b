-- sum, product, maximum and minimum from i32; empty arrays give 0, 1, lowest, highest.
-- ==
-- input { [1, 2, 3, 4] } output { 10 24 4 1 }
-- input { [-5] } output { -5 -5 -5 -5 }
-- input { empty([0]i32) } output { 0 1 -2147483648 2147483647 }
def main (xs: []i32) = (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs)
