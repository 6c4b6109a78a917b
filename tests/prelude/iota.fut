-- iota n produces 0..n-1 as i64.
-- ==
-- input { 5i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 1i64 } output { [0i64] }
-- input { 0i64 } output { empty([0]i64) }
def main (n: i64) = iota n
