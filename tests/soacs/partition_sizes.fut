-- The two parts of partition together have the size of the input.
-- ==
-- input { 1000i64 } output { 143i64 857i64 }
def main (n: i64) =
  let (a, b) = partition (\i -> i % 7 == 0) (iota n)
  in (length a, length b)
