-- Nested map over a two-dimensional array.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[2, 4, 6], [8, 10, 12]] }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { empty([2][0]i32) } output { empty([2][0]i32) }
def main (xss: [][]i32) = map (\xs -> map (* 2) xs) xss
