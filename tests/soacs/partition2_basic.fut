-- partition2 splits by two predicates into three arrays; the first predicate takes priority.
-- ==
-- input { [1, 15, 3, 10, 6, 7] } output { [15, 10] [3, 6] [1, 7] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) empty([0]i32) }
def main (xs: []i32) = partition2 (\x -> x % 5 == 0) (\x -> x % 3 == 0) xs
