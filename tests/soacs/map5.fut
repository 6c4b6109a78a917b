-- map5 checks that argument order is preserved.
-- ==
-- input { [1i64, 2] [3i64, 4] [5i64, 6] [7i64, 8] [9i64, 10] } output { [13579i64, 24690i64] }
def main [n] (a: [n]i64) (b: [n]i64) (c: [n]i64) (d: [n]i64) (e: [n]i64) =
  map5 (\v w x y z -> v * 10000 + w * 1000 + x * 100 + y * 10 + z) a b c d e
