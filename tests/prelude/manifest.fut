-- manifest is semantically the identity (it forces a row-major copy).
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 3], [2, 4]] }
def main (xss: [][]i32) = manifest (transpose xss)
