-- scatter on a large array: write i at position n-1-i, then check a few elements and the sum.
-- ==
-- input { 100000i64 } output { 99999i64 0i64 4999950000i64 }
def main (n: i64) =
  let r = scatter (replicate n 0) (map (\i -> n - 1 - i) (iota n)) (iota n)
  in (r[0], r[n - 1], reduce (+) 0 r)
