-- map producing booleans (note: % rounds toward negative infinity, so -3 % 2 == 1).
-- ==
-- input { [1, 2, -3, -4, 0] } output { [false, true, false, true, true] }
def main (xs: []i32) = map (\x -> x % 2 == 0) xs
