-- partition splits into elements that satisfy the predicate and those that do not,
-- both in their original order.
-- ==
-- input { [5, 2, 8, 1, 9, 4] } output { [2, 8, 4] [5, 1, 9] }
-- input { [2, 4] } output { [2, 4] empty([0]i32) }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
def main (xs: []i32) = partition (\x -> x % 2 == 0) xs
