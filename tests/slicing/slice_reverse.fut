-- a[::-1] reverses an array.
-- ==
-- input { [10, 20, 30, 40, 50, 60] } output { [60, 50, 40, 30, 20, 10] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (a: []i32) = a[::-1]
