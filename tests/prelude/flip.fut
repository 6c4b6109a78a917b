-- flip swaps the arguments of a binary function.
-- ==
-- input { 10 3 } output { 7 -7 3 }
def main (x: i32) (y: i32) = ((-) x y, flip (-) x y, flip (/) y x)
