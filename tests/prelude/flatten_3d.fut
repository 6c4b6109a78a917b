-- flatten_3d combines the outer three dimensions.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]] }
-- output { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
def main (xsss: [][][]i32) = flatten_3d xsss
