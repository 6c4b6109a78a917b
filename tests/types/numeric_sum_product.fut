-- Numeric module reductions: sum, product, maximum, minimum.
-- ==
-- input { [3, -1, 4, 2] } output { 8 -24 4 -1 }
def main (xs: []i32) = (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs)
