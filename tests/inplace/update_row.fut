-- Updating a whole row of a matrix.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 2], [0, 0]] }
def main [n][m] (a: *[n][m]i32) = a with [1] = replicate m 0
