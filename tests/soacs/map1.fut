-- map1 is the same as map.
-- ==
-- input { [3, 1, 4] } output { [9, 1, 16] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (xs: []i32) = map1 (\x -> x * x) xs
