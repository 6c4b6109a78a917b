-- flatten_4d combines four dimensions.
-- ==
-- input { [[[[1], [2]], [[3], [4]]], [[[5], [6]], [[7], [8]]]] }
-- output { [1, 2, 3, 4, 5, 6, 7, 8] }
def main (x: [][][][]i32) = flatten_4d x
