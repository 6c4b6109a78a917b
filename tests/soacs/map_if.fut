-- map with a branch in the body.
-- ==
-- input { [-2, -1, 0, 1, 2] } output { [2, 1, 0, 1, 2] }
def main (xs: []i32) = map (\x -> if x < 0 then -x else x) xs
