-- tabulate_2d builds a matrix from a function of row and column.
-- ==
-- input { 2i64 3i64 } output { [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] }
-- input { 0i64 3i64 } output { empty([0][3]i64) }
def main (n: i64) (m: i64) = tabulate_2d n m (\i j -> i * 10 + j)
