-- reduce with (+); the empty array gives the neutral element.
-- ==
-- input { [1, 2, 3, 4] } output { 10 }
-- input { [-7] } output { -7 }
-- input { empty([0]i32) } output { 0 }
-- input { [2147483647, 1] } output { -2147483648 }
def main (xs: []i32) = reduce (+) 0 xs
