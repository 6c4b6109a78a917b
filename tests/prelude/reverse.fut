-- reverse on a 2-d array reverses the rows.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[5, 6], [3, 4], [1, 2]] }
def main (xs: [][]i32) = reverse xs
