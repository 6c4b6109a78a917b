-- Nested array literals and indexing into them.
-- ==
-- input { 1i64 } output { [[1, 2], [3, 4]] [3, 4] }
def main (i: i64) =
  let a = [[1, 2], [3, 4]]
  in (a, a[i])
