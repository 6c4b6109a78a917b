-- map2 over two arrays of the same size.
-- ==
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) }
def main [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
