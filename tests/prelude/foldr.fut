-- foldr is a sequential right fold: foldr f z [a, b, c] = f a (f b (f c z)).
-- ==
-- input { [1, 2, 3] } output { 2 321 }
-- input { empty([0]i32) } output { 0 0 }
def main (xs: []i32) = (foldr (-) 0 xs, foldr (\d acc -> acc * 10 + d) 0 xs)
