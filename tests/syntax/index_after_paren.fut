-- Indexing directly after a closing parenthesis or bracket.
-- ==
-- input { [1, 2, 3] } output { 4 3 }
def main (xs: []i32) = ((map (+1) xs)[2], [[1, 2], [3, 4]][1][0])
