-- Inclusive prefix sum with scan, including the empty array.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6] } output { [3, 4, 8, 9, 14, 23, 25, 31] }
-- input { [42] } output { [42] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (xs: []i32) = scan (+) 0 xs
