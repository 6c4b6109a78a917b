-- map with an operator section over a 1-d array, including the empty array.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] }
-- input { [-5, 0, 2147483647] } output { [-4, 1, -2147483648] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (xs: []i32) = map (+1) xs
