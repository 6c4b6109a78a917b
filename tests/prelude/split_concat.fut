-- split (new form): the sizes come from the type of the argument, here a concatenation.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [1, 2] [3, 4, 5] }
-- input { empty([0]i32) [3] } output { empty([0]i32) [3] }
def main [n][m] (xs: [n]i32) (ys: [m]i32) : ([n]i32, [m]i32) = split (xs ++ ys)
