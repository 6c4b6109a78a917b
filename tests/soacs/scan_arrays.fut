-- scan whose elements are arrays: running column sums.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 2], [4, 6], [9, 12]] }
def main [n][m] (xss: [n][m]i32) = scan (map2 (+)) (replicate m 0) xss
