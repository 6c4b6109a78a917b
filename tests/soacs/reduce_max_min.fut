-- reduce with max and min from the numeric modules; neutral elements lowest/highest.
-- ==
-- input { [3, -1, 7, 2] } output { 7 -1 }
-- input { empty([0]i32) } output { -2147483648 2147483647 }
def main (xs: []i32) = (reduce i32.max i32.lowest xs, reduce i32.min i32.highest xs)
