-- Updating a slice: a with [1:3] = [7, 8].
-- ==
-- input { [1, 2, 3, 4] } output { [1, 7, 8, 4] }
def main (a: *[]i32) = a with [1:3] = [7, 8]
