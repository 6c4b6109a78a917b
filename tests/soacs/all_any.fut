-- all and any with predicates, including empty arrays.
-- ==
-- input { [2, 4, 6] } output { true true }
-- input { [2, 3, 6] } output { false true }
-- input { [1, 3] } output { false false }
-- input { empty([0]i32) } output { true false }
def main (xs: []i32) = (all (\x -> x % 2 == 0) xs, any (\x -> x % 2 == 0) xs)
