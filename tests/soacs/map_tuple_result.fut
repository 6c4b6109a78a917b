-- map returning a tuple; the result is an array of pairs that is unzipped.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [2, 4, 6] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
def main (xs: []i32) = unzip (map (\x -> (x, x * 2)) xs)
