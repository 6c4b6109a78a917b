-- The ++ operator concatenates arrays, including empty ones.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [1, 2, 3, 4, 5] }
-- input { empty([0]i32) [3] } output { [3] }
-- input { [1] empty([0]i32) } output { [1] }
-- input { empty([0]i32) empty([0]i32) } output { empty([0]i32) }
def main (xs: []i32) (ys: []i32) = xs ++ ys
