-- map whose function returns an array gives a 2-d result.
-- ==
-- input { [1, 5] } output { [[1, 2, 3], [5, 6, 7]] }
-- input { empty([0]i32) } output { empty([0][3]i32) }
def main (xs: []i32) = map (\x -> [x, x + 1, x + 2]) xs
