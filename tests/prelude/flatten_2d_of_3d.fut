-- flatten on a 3-d array only combines the outer two dimensions.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[1, 2], [3, 4], [5, 6], [7, 8]] }
def main (xsss: [][][]i32) = flatten xsss
