-- tabulate_3d builds a 3-d array.
-- ==
-- input { 2i64 2i64 3i64 }
-- output { [[[0, 1, 2], [10, 11, 12]], [[100, 101, 102], [110, 111, 112]]] }
def main (n: i64) (m: i64) (o: i64) =
  tabulate_3d n m o (\i j k -> i32.i64 (i * 100 + j * 10 + k))
