-- hist over a large input: bin i % 10 of iota n.
-- ==
-- input { 100000i64 } output { [10000i64, 10000i64, 10000i64, 10000i64, 10000i64, 10000i64, 10000i64, 10000i64, 10000i64, 10000i64] }
-- input { 25i64 } output { [3i64, 3i64, 3i64, 3i64, 3i64, 2i64, 2i64, 2i64, 2i64, 2i64] }
def main (n: i64) = hist (+) 0 10 (map (% 10) (iota n)) (replicate n 1i64)
