-- rotate on the rows of a matrix, and on each row with map.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[4, 5, 6], [1, 2, 3]] [[3, 1, 2], [6, 4, 5]] }
def main (xss: [][]i32) = (rotate 1 xss, map (rotate (-1)) xss)
