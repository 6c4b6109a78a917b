-- zip then unzip is the identity.
-- ==
-- input { [1, 2, 3] [true, false, true] } output { [1, 2, 3] [true, false, true] }
-- input { empty([0]i32) empty([0]bool) } output { empty([0]i32) empty([0]bool) }
def main [n] (xs: [n]i32) (ys: [n]bool) = unzip (zip xs ys)
