-- Transposing the outer dimensions of a 3-d array and mapping transpose inside.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [[[1, 2], [5, 6]], [[3, 4], [7, 8]]] [[[1, 3], [2, 4]], [[5, 7], [6, 8]]] }
def main (a: [][][]i32) = (transpose a, map transpose a)
